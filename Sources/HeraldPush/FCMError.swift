/// How FCM HTTP v1 reports a refusal, reduced to the one reason string `ProviderResponse`
/// carries (docs: firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode).
public enum FCMError {
    /// Appended to `INVALID_ARGUMENT` when the error names the registration token
    /// (`message.token` in a field violation): only then is the device at fault.
    public static let tokenReasonSuffix = " message.token"

    /// The reason for an FCM error body: the `FcmError` detail's `errorCode` when present
    /// (`UNREGISTERED`, `SENDER_ID_MISMATCH`, `QUOTA_EXCEEDED`, …), else the Google status
    /// (`INVALID_ARGUMENT`, `UNAUTHENTICATED`, …); with `tokenReasonSuffix` when the
    /// error concerns the token.
    /// - Parameters:
    ///   - status: `error.status`.
    ///   - errorCode: the `type.googleapis.com/google.firebase.fcm.v1.FcmError` detail's code.
    ///   - fields: the fields named by `BadRequest` field violations.
    ///   - message: `error.message`.
    public static func reason(status: String?, errorCode: String?, fields: [String], message: String?) -> String {
        let code = errorCode ?? status ?? "UNKNOWN"
        guard code == "INVALID_ARGUMENT" else { return code }
        let aboutToken = fields.contains("message.token")
            || (message?.lowercased().contains("registration token") ?? false)
        return aboutToken ? code + tokenReasonSuffix : code
    }
}
