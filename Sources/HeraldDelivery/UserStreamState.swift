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
    /// The fires-once subscriptions that already fired for this user, by key and revision
    /// (`firedOnceEntry`), in the order they fired (at most `firedOnceLimit`).
    public var firedOnce: [String]
    /// The last offset applied from each input partition.
    public var appliedOffsets: AppliedOffsets
    /// The latest notifications' IDs as fingerprints (at most `RecentNotifications.limit`):
    /// the same change delivered twice upstream yields the same ID and is not sent again.
    public var recentNotifications: RecentNotifications

    public init(recipient: String) {
        self.recipient = recipient
        self.nextSequence = 1
        self.badges = [:]
        self.firedOnce = []
        self.appliedOffsets = AppliedOffsets()
        self.recentNotifications = RecentNotifications()
    }

    /// Remembers a notification ID, forgetting the oldest beyond `RecentNotifications.limit`.
    public mutating func remember(_ notificationID: String) {
        recentNotifications.remember(notificationID)
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    /// `recentNotificationIDs`: the window as IDs, written before session 15 (read, never written).
    private enum CodingKeys: String, CodingKey {
        case recipient, nextSequence, badges, firedOnce, appliedOffsets, recentNotifications, recentNotificationIDs
    }

    /// Decodes and validates: a non-empty recipient, a positive next sequence, badges and
    /// offsets not negative, `recentNotifications` base64 of at most 512 fingerprints. A
    /// state written before fingerprints (`recentNotificationIDs`, a list of IDs) is read
    /// into them.
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
        if let base64 = try c.decodeIfPresent(String.self, forKey: .recentNotifications) {
            guard let recent = RecentNotifications(base64: base64) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .recentNotifications, in: c,
                    debugDescription: "must be base64 of at most \(RecentNotifications.limit) 8-byte fingerprints")
            }
            recentNotifications = recent
        } else {
            recentNotifications = RecentNotifications(ids: try c.decodeIfPresent([String].self, forKey: .recentNotificationIDs) ?? [])
        }
    }

    /// Encodes as `write(to:)` does (keys in byte order under `WireCodec`'s sorted keys).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(recipient, forKey: .recipient)
        try c.encode(nextSequence, forKey: .nextSequence)
        try c.encode(badges, forKey: .badges)
        try c.encode(firedOnce, forKey: .firedOnce)
        try c.encode(appliedOffsets, forKey: .appliedOffsets)
        try c.encode(recentNotifications.base64, forKey: .recentNotifications)
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
