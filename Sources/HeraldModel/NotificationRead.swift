/// A user marked some of their notifications read: the value of topic
/// `notification-reads`, keyed by `recipient` (docs/ARCHITECTURE.md §1.2).
///
/// ```json
/// {"recipient": "_u1", "containerIdentifier": "iCloud.x", "notificationIDs": ["5b1c…"], "readAt": 1795300000000}
/// ```
///
/// The reader store records each ID for (recipient, container); a later fetch returns
/// those notifications as `readNotification` carrying only their ID. A read may arrive
/// before the notification it names; it takes effect once the notification does.
public struct NotificationRead: Sendable, Hashable, Codable {
    /// The most IDs one read may carry (CloudKit's per-request limit).
    public static let maximumNotificationIDs = 400

    /// The user who read them (the Kafka key); only their own notifications are affected.
    public var recipient: String
    /// The container the notifications belong to.
    public var containerIdentifier: String
    /// The notifications read: 1…`maximumNotificationIDs` non-empty IDs.
    public var notificationIDs: [String]
    /// When the user marked them read, milliseconds since 1970.
    public var readAt: Int64

    /// Creates a read (not validated; decoding validates).
    public init(recipient: String, containerIdentifier: String, notificationIDs: [String], readAt: Int64) {
        self.recipient = recipient
        self.containerIdentifier = containerIdentifier
        self.notificationIDs = notificationIDs
        self.readAt = readAt
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    private enum CodingKeys: String, CodingKey {
        case recipient, containerIdentifier, notificationIDs, readAt
    }

    /// Decodes and validates: recipient and container non-empty, 1…400 non-empty IDs,
    /// `readAt` not negative.
    /// - Throws: `ModelError` (or `DecodingError`, which `WireCodec` translates) at the offending path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decodeNonEmpty(.recipient)
        containerIdentifier = try c.decodeNonEmpty(.containerIdentifier)
        guard let ids = try c.decodeNonEmptyStringsIfPresent(.notificationIDs) else {
            throw c.error(.missingValue, "required key is missing", at: .notificationIDs)
        }
        guard (1...Self.maximumNotificationIDs).contains(ids.count) else {
            throw c.error(
                .invalidValue, "must hold 1 to \(Self.maximumNotificationIDs) IDs, got \(ids.count)",
                at: .notificationIDs)
        }
        notificationIDs = ids
        readAt = try c.decodeNonNegative(.readAt)
    }
}
