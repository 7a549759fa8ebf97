import HeraldModel

extension PushAction {
    /// Decides what to do with a provider's answer (issue 15's table, one row per case):
    ///
    /// - 200 → `.sent`.
    /// - APNs 410 (`Unregistered`, `ExpiredToken`) and 400 `BadDeviceToken` /
    ///   `DeviceTokenNotForTopic`; FCM `UNREGISTERED`, `SENDER_ID_MISMATCH` and
    ///   `INVALID_ARGUMENT` about the token (`FCMError.tokenReasonSuffix`) → `.removeDevice`
    ///   with the provider's timestamp.
    /// - 429 and every 5xx, and no answer at all → `.retry`, honouring `Retry-After`. Other
    ///   5xx than 500/503 are retried too: they are the provider's trouble, not the push's.
    /// - APNs `ExpiredProviderToken` → `.retry`: the client's token was stale, the client
    ///   mints a new one; it is not a credentials problem.
    /// - Other 401/403 → `.pauseApp`: Herald's credentials are wrong for this app.
    /// - Anything else → `.deadLetter` with `"<status> <reason>"`.
    public init(response: ProviderResponse, platform: Device.Platform) {
        switch response {
        case .accepted:
            self = .sent
        case .unreachable:
            self = .retry(afterSeconds: nil)
        case .rejected(let status, let reason, let timestamp, let retryAfter):
            if status == 429 || (500...599).contains(status) {
                self = .retry(afterSeconds: retryAfter)
            } else if Self.isGoneToken(status: status, reason: reason, platform: platform) {
                self = .removeDevice(reason: reason, observedAt: timestamp)
            } else if platform == .apns && reason == "ExpiredProviderToken" {
                self = .retry(afterSeconds: retryAfter)
            } else if status == 401 || status == 403 {
                self = .pauseApp(reason: "\(status) \(reason)")
            } else {
                self = .deadLetter(reason: "\(status) \(reason)")
            }
        }
    }

    /// Whether the provider says the token itself is gone or wrong.
    private static func isGoneToken(status: Int, reason: String, platform: Device.Platform) -> Bool {
        switch platform {
        case .apns:
            return status == 410 || (status == 400 && (reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic"))
        case .fcm:
            return reason == "UNREGISTERED" || reason == "SENDER_ID_MISMATCH"
                || reason == "INVALID_ARGUMENT" + FCMError.tokenReasonSuffix
        }
    }
}
