import Foundation
import HeraldAPI
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages

/// What the HTTP API writes, sent to Kafka: subscriptions and their tombstones to the
/// compacted `subscriptions` topic, schedules and theirs to the compacted `schedules`
/// topic, reads to `notification-reads`, badge resets to `badge-resets`, device locations
/// to `locations` — each returning once the broker acknowledged it. The subscription copy
/// (when given: the API's directory) and the schedule table take a change at once, so a `GET` right after a
/// `PUT` or `POST` sees it (the table applies the same record again when it consumes it).
///
/// Subscriptions and their tombstones go to the partition of their owner (their
/// `Subscription.placementKey`), where the match stage instance that can fire them reads them.
/// Schedules and their tombstones go to the partition of their recipient
/// (`KeyPartitioner`), not of their own key, so they are co-partitioned with the user's
/// locations, profile and notifications.
public struct KafkaHeraldPublisher: HeraldPublisher {
    public let producer: KafkaProducer
    public let catalog: TopicCatalog
    public let table: (any SubscriptionCopy)?
    public let schedules: ScheduleTable?

    /// - Parameters:
    ///   - table: the subscription copy to update at once, if any.
    ///   - schedules: the schedule table to update at once, if any.
    public init(producer: KafkaProducer, catalog: TopicCatalog, table: (any SubscriptionCopy)?, schedules: ScheduleTable? = nil) {
        self.producer = producer
        self.catalog = catalog
        self.table = table
        self.schedules = schedules
    }

    public func publish(subscription: Subscription) async throws {
        let value = try WireCodec().encode(subscription)
        try await send(TopicCatalog.subscriptions, partition: partition(of: subscription), key: subscription.partitionKey, value: value)
        try await tombstoneUnplacedCopy(of: subscription)
        // Read-your-writes only: the record is on the topic now, and the table's follower
        // applies it from there (dead-lettering it if it could not), so a local failure
        // here loses nothing.
        try? await table?.applyPublished(key: subscription.partitionKey, value: value)
    }

    /// Tombstones the subscription's key and, while the topic still holds a record of it under
    /// the key used before per-user IDs, that key too (or a reload would bring it back).
    public func deleteSubscription(_ subscription: Subscription) async throws {
        let oldKey = try table?.oldKey(of: subscription)
        try await send(TopicCatalog.subscriptions, partition: partition(of: subscription), key: subscription.partitionKey, value: nil)
        try await tombstoneUnplacedCopy(of: subscription)
        if let oldKey { try await send(TopicCatalog.subscriptions, key: oldKey, value: nil) }
        // The tombstones are on the topic: the copy deletes the row when it reads them anyway.
        try? await table?.removePublished(key: subscription.partitionKey)
    }

    public func publish(read: NotificationRead) async throws {
        try await send(TopicCatalog.notificationReads, key: read.partitionKey, value: try WireCodec().encode(read))
    }

    public func publish(badgeReset: BadgeReset) async throws {
        try await send(TopicCatalog.badgeResets, key: badgeReset.partitionKey, value: try WireCodec().encode(badgeReset))
    }

    public func publish(schedule: Schedule) async throws {
        try await send(
            TopicCatalog.schedules, partition: partition(of: schedule), key: schedule.partitionKey,
            value: try WireCodec().encode(schedule))
        schedules?.put(schedule)
    }

    public func deleteSchedule(_ schedule: Schedule) async throws {
        try await send(TopicCatalog.schedules, partition: partition(of: schedule), key: schedule.partitionKey, value: nil)
        schedules?.remove(key: schedule.partitionKey)
    }

    public func publish(location: DeviceLocation) async throws {
        try await send(TopicCatalog.locations, key: location.partitionKey, value: try WireCodec().encode(location))
    }

    /// The partition of the subscription's owner (docs/ARCHITECTURE.md §9).
    private func partition(of subscription: Subscription) -> Int32 {
        SubscriptionPlacement(partitions: catalog.partitions).partition(of: subscription)
    }

    /// Tombstones the subscription's key on the partition its key alone gives (where it was
    /// written before placement), when that is not its placement: an older copy there must
    /// not be re-placed over this write (`PlacedSubscriptionLoader`).
    private func tombstoneUnplacedCopy(of subscription: Subscription) async throws {
        let unplaced = KeyPartitioner.partition(of: subscription.partitionKey, partitions: catalog.partitions)
        guard unplaced != partition(of: subscription) else { return }
        try await send(TopicCatalog.subscriptions, partition: unplaced, key: subscription.partitionKey, value: nil)
    }

    /// The partition of the schedule's recipient.
    private func partition(of schedule: Schedule) -> Int32 {
        KeyPartitioner.partition(of: schedule.recipient, partitions: catalog.partitions)
    }

    private func send(_ topic: TopicCatalog.Topic, partition: Int32? = nil, key: String, value: Data?) async throws {
        _ = try await producer.send([OutgoingMessage(topic: catalog.name(topic), partition: partition, key: key, value: value)])
    }
}

/// The badge counts the reader store keeps, for the API.
public struct StoreBadges: BadgeReading {
    public let store: NotificationStore

    public init(store: NotificationStore) { self.store = store }

    public func badge(recipient: String, container: String) async throws -> Int {
        try await store.badge(recipient: recipient, container: container)
    }
}
