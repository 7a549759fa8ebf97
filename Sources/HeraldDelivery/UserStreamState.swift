import HeraldModel

/// What the compose stage keeps per user (docs/ARCHITECTURE.md §1.1): the next sequence number of their
/// stream, their badge count per container, the fires-once subscriptions already used, and
/// the last input offset applied per topic partition. It is the value of the compacted
/// changelog topic `compose-state` (key = recipient), written with every batch's outputs, so
/// a restart or a new partition owner restores it and never applies an input twice.
public struct UserStreamState: Sendable, Hashable, Codable {
    public var recipient: String
    /// The sequence the next notification gets; starts at 1.
    public var nextSequence: Int64
    /// The running badge count per container.
    public var badges: [String: Int]
    /// Keys of fires-once subscriptions that already fired for this user, sorted.
    public var firedOnce: [String]
    /// The last offset applied from each input partition.
    public var appliedOffsets: AppliedOffsets
    /// IDs of the latest notifications, oldest first (at most `recentLimit`): the same
    /// change delivered twice upstream yields the same ID and is not sent again.
    public var recentNotificationIDs: [String]

    /// How many notification IDs `recentNotificationIDs` keeps.
    public static let recentLimit = 512

    public init(recipient: String) {
        self.recipient = recipient
        self.nextSequence = 1
        self.badges = [:]
        self.firedOnce = []
        self.appliedOffsets = AppliedOffsets()
        self.recentNotificationIDs = []
    }

    /// Remembers a notification ID, forgetting the oldest beyond `recentLimit`.
    public mutating func remember(_ notificationID: String) {
        recentNotificationIDs.append(notificationID)
        if recentNotificationIDs.count > Self.recentLimit {
            recentNotificationIDs.removeFirst(recentNotificationIDs.count - Self.recentLimit)
        }
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    private enum CodingKeys: String, CodingKey { case recipient, nextSequence, badges, firedOnce, appliedOffsets, recentNotificationIDs }

    /// Decodes and validates: a non-empty recipient, a positive next sequence, badges and
    /// offsets not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decodeNonEmptyValue(.recipient)
        nextSequence = try c.decode(Int64.self, forKey: .nextSequence)
        guard nextSequence >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .nextSequence, in: c, debugDescription: "must be at least 1")
        }
        badges = try c.decodeIfPresent([String: Int].self, forKey: .badges) ?? [:]
        guard badges.values.allSatisfy({ $0 >= 0 }) else {
            throw DecodingError.dataCorruptedError(forKey: .badges, in: c, debugDescription: "badges must not be negative")
        }
        firedOnce = try c.decodeIfPresent([String].self, forKey: .firedOnce) ?? []
        appliedOffsets = try c.decodeIfPresent(AppliedOffsets.self, forKey: .appliedOffsets) ?? AppliedOffsets()
        recentNotificationIDs = try c.decodeIfPresent([String].self, forKey: .recentNotificationIDs) ?? []
    }
}

extension KeyedDecodingContainer {
    fileprivate func decodeNonEmptyValue(_ key: Key) throws -> String {
        let text = try decode(String.self, forKey: key)
        guard !text.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must not be empty")
        }
        return text
    }
}
