/// Sends one push to its provider and reports the answer; never throws — every failure is
/// a `ProviderResponse`. Implemented by the APNs and FCM clients (HeraldPushClient) and by
/// test doubles.
public protocol PushTransport: Sendable {
    /// Sends `request` and waits for the provider's answer.
    func send(_ request: PushRequest) async -> ProviderResponse
}
