/// A user's app badge set to a value (usually 0 after the app showed everything): the value
/// of topic `badge-resets`, keyed by `recipient`. The compose stage applies it in order with
/// the user's matches, so the next notification that badges counts from `badge`.
///
/// ```json
/// {"recipient": "_u1", "containerIdentifier": "iCloud.x", "badge": 0, "requestedAt": 1795300000000}
/// ```
public struct BadgeReset: Sendable, Hashable, Codable {
    /// The user whose badge it is (the Kafka key).
    public var recipient: String
    /// The app (container) whose badge it is.
    public var containerIdentifier: String
    /// The new badge value, not negative.
    public var badge: Int
    /// When it was asked for, milliseconds since 1970.
    public var requestedAt: Int64

    /// Creates a reset (not validated; decoding validates).
    public init(recipient: String, containerIdentifier: String, badge: Int, requestedAt: Int64) {
        self.recipient = recipient
        self.containerIdentifier = containerIdentifier
        self.badge = badge
        self.requestedAt = requestedAt
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    private enum CodingKeys: String, CodingKey { case recipient, containerIdentifier, badge, requestedAt }

    /// Decodes and validates: recipient and container non-empty, badge and time not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decodeNonEmpty(.recipient)
        containerIdentifier = try c.decodeNonEmpty(.containerIdentifier)
        badge = Int(clamping: try c.decodeNonNegative(.badge))
        requestedAt = try c.decodeNonNegative(.requestedAt)
    }
}
