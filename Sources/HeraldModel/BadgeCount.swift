/// A user's badge count in one app (container) as the compose stage last set it: the value
/// of the compacted topic `badges`, keyed by `container/recipient` on the recipient's
/// partition (docs/ARCHITECTURE.md §1.2, §5.4). The compose stage writes one whenever a
/// badged notification raises the count or a badge reset is applied, in the same delivery
/// as the notification and its state; the reader keeps the latest per key.
///
/// The count is absolute, not a difference: applying a record twice, or an older one
/// before the latest of the same key, ends at the same value, so replays are harmless.
///
/// ```json
/// {"recipient": "_u1", "containerIdentifier": "iCloud.x", "badge": 3}
/// ```
public struct BadgeCount: Sendable, Hashable, Codable {
    /// The user whose badge it is.
    public var recipient: String
    /// The app (container) whose badge it is.
    public var containerIdentifier: String
    /// The count, not negative.
    public var badge: Int

    /// Creates a count (not validated; decoding validates).
    public init(recipient: String, containerIdentifier: String, badge: Int) {
        self.recipient = recipient
        self.containerIdentifier = containerIdentifier
        self.badge = badge
    }

    /// The Kafka key, one per (container, recipient) so compaction keeps every app's count.
    public var key: String { "\(containerIdentifier)/\(recipient)" }

    private enum CodingKeys: String, CodingKey { case recipient, containerIdentifier, badge }

    /// Decodes and validates: recipient and container non-empty, badge not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decodeNonEmpty(.recipient)
        containerIdentifier = try c.decodeNonEmpty(.containerIdentifier)
        badge = Int(clamping: try c.decodeNonNegative(.badge))
    }
}
