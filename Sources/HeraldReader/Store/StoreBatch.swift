import HeraldModel

/// What one consumer poll brings to the store, applied in one write transaction: the
/// notifications (still their topic JSON) and reads from the messages, and the offsets
/// just past them.
public struct StoreBatch: Sendable, Hashable {
    /// Notifications from topic `notifications`, stored as is; a notification ID already
    /// stored (or a sequence already removed by retention) is a replay and is skipped.
    public var notifications: [EncodedNotification]
    /// Reads from topic `notification-reads`; they may name notifications not yet stored.
    public var reads: [NotificationRead]
    /// The next offset of each partition the messages came from. An offset lower than
    /// the saved one is ignored; when a partition appears twice the highest wins.
    public var offsets: [ConsumedOffset]
    /// Badge counts from topic `badges`, in order (the last one per recipient and container
    /// wins); a count is absolute, so a replayed one changes nothing.
    public var badges: [BadgeCount]

    /// Creates a batch.
    public init(
        notifications: [EncodedNotification] = [], reads: [NotificationRead] = [], offsets: [ConsumedOffset] = [],
        badges: [BadgeCount] = []
    ) {
        self.notifications = notifications
        self.reads = reads
        self.offsets = offsets
        self.badges = badges
    }

    /// Whether the batch holds nothing at all.
    public var isEmpty: Bool { notifications.isEmpty && reads.isEmpty && offsets.isEmpty && badges.isEmpty }
}
