import Foundation

/// A fetch answer whose notifications stay the JSON bytes the store holds — the same
/// page as `NotificationPage` without decoding and re-encoding every notification. Use it
/// for HTTP bodies (`jsonBody`) and server-sent events (one `Entry` per event, its id the
/// token for `sequence`).
public struct EncodedNotificationPage: Sendable, Hashable {
    /// One notification of the page.
    public struct Entry: Sendable, Hashable {
        /// The notification's ID.
        public var notificationID: String
        /// Its position: `tokenSigner.token(recipient:container:sequence:)` of it resumes
        /// right after it (the SSE event id).
        public var sequence: Int64
        /// Whether it is returned as a `readNotification`.
        public var isRead: Bool
        /// The notification as `WireCodec` encodes it (sorted keys), exactly what
        /// `NotificationPage` would hold for it.
        public var json: Data
    }

    /// In increasing sequence order.
    public var notifications: [Entry]
    /// As `NotificationPage.serverChangeToken`.
    public var serverChangeToken: ChangeToken
    /// As `NotificationPage.moreComing`.
    public var moreComing: Bool

    /// The HTTP body, byte for byte what `WireCodec().encode(_:)` gives for the equivalent
    /// `NotificationPage`: `{"moreComing":…,"notifications":[…],"serverChangeToken":"…"}`.
    public var jsonBody: Data {
        var body = Data(#"{"moreComing":\#(moreComing),"notifications":["#.utf8)
        body.reserveCapacity(notifications.reduce(body.count + 64) { $0 + $1.json.count + 1 })
        for (index, entry) in notifications.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(entry.json)
        }
        // Tokens are base64url: nothing in them needs escaping.
        body.append(contentsOf: #"],"serverChangeToken":"\#(serverChangeToken.rawValue)"}"#.utf8)
        return body
    }
}
