import Foundation
import HeraldAPI
import HeraldKafka
import HeraldModel
import HeraldReader

/// What the HTTP API writes, sent to Kafka: subscriptions and their tombstones to the
/// compacted `subscriptions` topic, reads to `notification-reads`, badge resets to
/// `badge-resets` — each returning once the broker acknowledged it. When this process also
/// runs the match stage, its subscription table takes the change at once, so a `GET` right
/// after a `PUT` sees it (the table applies the same record again when it consumes it).
public struct KafkaHeraldPublisher: HeraldPublisher {
    public let producer: KafkaProducer
    public let catalog: TopicCatalog
    public let table: SubscriptionTable?

    public init(producer: KafkaProducer, catalog: TopicCatalog, table: SubscriptionTable?) {
        self.producer = producer
        self.catalog = catalog
        self.table = table
    }

    public func publish(subscription: Subscription) async throws {
        let value = try WireCodec().encode(subscription)
        try await send(TopicCatalog.subscriptions, key: subscription.partitionKey, value: value)
        try? table?.apply(key: subscription.partitionKey, value: value)
    }

    public func deleteSubscription(key: String) async throws {
        try await send(TopicCatalog.subscriptions, key: key, value: nil)
        table?.remove(key: key)
    }

    public func publish(read: NotificationRead) async throws {
        try await send(TopicCatalog.notificationReads, key: read.partitionKey, value: try WireCodec().encode(read))
    }

    public func publish(badgeReset: BadgeReset) async throws {
        try await send(TopicCatalog.badgeResets, key: badgeReset.partitionKey, value: try WireCodec().encode(badgeReset))
    }

    private func send(_ topic: TopicCatalog.Topic, key: String, value: Data?) async throws {
        _ = try await producer.send([OutgoingMessage(topic: catalog.name(topic), key: key, value: value)])
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
