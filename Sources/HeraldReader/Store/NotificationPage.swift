import HeraldModel

/// One answer to a fetch (CKFetchNotificationChangesOperation): the notifications after
/// the token in sequence order, the token to pass next time, and whether more are waiting.
/// Encodes as the HTTP body `{"notifications": […], "serverChangeToken": "…", "moreComing": false}`:
/// the store answers with an `EncodedNotificationPage`, whose `jsonBody` decodes as this
/// (with `WireCodec`) where a client or a test needs the values.
public struct NotificationPage: Sendable, Hashable, Codable {
    /// In increasing sequence order. Read ones are `readNotification`s carrying only their
    /// ID, container, recipient, sequence and creation time.
    public var notifications: [HeraldNotification]
    /// The position after this page; when nothing was new, the position asked from.
    public var serverChangeToken: ChangeToken
    /// Whether the results limit cut the page short: fetch again with the new token.
    public var moreComing: Bool

    /// Creates a page.
    public init(notifications: [HeraldNotification], serverChangeToken: ChangeToken, moreComing: Bool) {
        self.notifications = notifications
        self.serverChangeToken = serverChangeToken
        self.moreComing = moreComing
    }
}
