/// A refusal the stand-in gives for a token it is told about, in each provider's words.
public enum StandInAnswer: Sendable, Hashable {
    /// APNs 410 `Unregistered` with a timestamp; FCM 404 `UNREGISTERED`.
    case unregistered
    /// APNs 400 `BadDeviceToken`; FCM 400 `INVALID_ARGUMENT` on `message.token`.
    case badDeviceToken
    /// APNs 400 `DeviceTokenNotForTopic`; FCM 403 `SENDER_ID_MISMATCH`.
    case wrongTopic
    /// 429 with `Retry-After`.
    case tooManyRequests(retryAfterSeconds: Int)
    /// 503 (APNs `ServiceUnavailable`, FCM `UNAVAILABLE`), with `Retry-After` when given.
    case unavailable(retryAfterSeconds: Int?)
    /// 500 `InternalServerError` / `INTERNAL`.
    case internalError
    /// 403: APNs `InvalidProviderToken`, FCM `THIRD_PARTY_AUTH_ERROR` (bad credentials).
    case forbidden

    /// The HTTP status and reason for `platform` (`apns` or `fcm`).
    func refusal(fcm: Bool) -> (status: Int, reason: String, retryAfter: Int?) {
        switch self {
        case .unregistered: fcm ? (404, "UNREGISTERED", nil) : (410, "Unregistered", nil)
        case .badDeviceToken: fcm ? (400, "INVALID_ARGUMENT", nil) : (400, "BadDeviceToken", nil)
        case .wrongTopic: fcm ? (403, "SENDER_ID_MISMATCH", nil) : (400, "DeviceTokenNotForTopic", nil)
        case .tooManyRequests(let seconds): fcm ? (429, "QUOTA_EXCEEDED", seconds) : (429, "TooManyRequests", seconds)
        case .unavailable(let seconds): fcm ? (503, "UNAVAILABLE", seconds) : (503, "ServiceUnavailable", seconds)
        case .internalError: fcm ? (500, "INTERNAL", nil) : (500, "InternalServerError", nil)
        case .forbidden: fcm ? (403, "THIRD_PARTY_AUTH_ERROR", nil) : (403, "InvalidProviderToken", nil)
        }
    }
}
