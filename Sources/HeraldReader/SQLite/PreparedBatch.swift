import Foundation
import HeraldModel

/// A `StoreBatch` checked outside the write transaction, so the write lock is
/// held only for SQL.
struct PreparedBatch: Sendable {
    /// The batch's notifications, each with a recipient and a container.
    var notifications: [EncodedNotification]
    var reads: [NotificationRead]
    var badges: [BadgeCount]
    /// One per partition, the highest given.
    var offsets: [ConsumedOffset]

    /// - Throws: `ReaderError` (`BAD_REQUEST`) for a negative offset or a notification
    ///   with an empty recipient or container.
    init(_ batch: StoreBatch) throws(ReaderError) {
        if let unaddressed = batch.notifications.first(where: { $0.recipient.isEmpty || $0.containerIdentifier.isEmpty }) {
            throw ReaderError(
                .badRequest, "notification \(unaddressed.notificationID) has no recipient or container", operation: "apply")
        }
        notifications = batch.notifications
        reads = batch.reads
        badges = batch.badges
        var highest: [TopicPartitionKey: Int64] = [:]
        for offset in batch.offsets {
            guard offset.nextOffset >= 0 else {
                throw ReaderError(.badRequest, "offset \(offset) is negative", operation: "apply")
            }
            let key = TopicPartitionKey(topic: offset.topic, partition: offset.partition)
            highest[key] = max(highest[key] ?? offset.nextOffset, offset.nextOffset)
        }
        offsets = highest.map { ConsumedOffset(topic: $0.key.topic, partition: $0.key.partition, nextOffset: $0.value) }
    }

    private struct TopicPartitionKey: Hashable {
        var topic: String
        var partition: Int32
    }
}
