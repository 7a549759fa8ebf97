/// What a push provider (APNs or FCM) answered to one `PushRequest`, before any decision.
public enum ProviderResponse: Sendable, Hashable {
    /// Accepted (HTTP 200). `providerID` is APNs' `apns-id` echo or FCM's message name.
    case accepted(providerID: String?)
    /// Refused with an HTTP status and the provider's reason (`BadDeviceToken`,
    /// `UNREGISTERED`, …). `timestamp` is APNs' 410 timestamp (milliseconds since 1970);
    /// `retryAfterSeconds` the `Retry-After` header, when given.
    case rejected(status: Int, reason: String, timestamp: Int64?, retryAfterSeconds: Int?)
    /// No answer: connection refused or reset, TLS failure, timeout.
    case unreachable(String)
}
