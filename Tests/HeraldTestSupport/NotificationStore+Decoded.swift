import HeraldModel
import HeraldReader

/// Test support: the reader store's one API (async, notifications as JSON) with the
/// decoding done here, where tests assert on notification values.
extension NotificationStore {
    /// `fetchEncoded(recipient:container:after:limit:includeRead:)` with its body decoded by
    /// `WireCodec`: the page an HTTP client gets.
    public func fetch(
        recipient: String, container: String, after token: ChangeToken?, limit: Int? = nil, includeRead: Bool = true
    ) async throws -> NotificationPage {
        let page = try await fetchEncoded(
            recipient: recipient, container: container, after: token, limit: limit, includeRead: includeRead)
        return try WireCodec().decode(NotificationPage.self, from: page.jsonBody)
    }
}

extension StoreBatch {
    /// A batch of `notifications` encoded by `WireCodec`, as the compose stage writes them
    /// to topic `notifications`.
    public init(
        notifications: [HeraldNotification], reads: [NotificationRead] = [], offsets: [ConsumedOffset] = [],
        badges: [BadgeCount] = []
    ) throws {
        let codec = WireCodec()
        try self.init(
            notifications: notifications.map { try EncodedNotification(json: codec.encode($0)) }, reads: reads,
            offsets: offsets, badges: badges)
    }
}
