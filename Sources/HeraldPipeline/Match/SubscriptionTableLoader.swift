import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Reads the whole compacted `subscriptions` topic into a `SubscriptionTable` on every
/// instance (a `CompactedTopicFollower`: all partitions, from the beginning, no consumer
/// group), marks the table ready once it reached the end offsets seen at start, then keeps
/// following new subscriptions.
///
/// Invalid subscriptions go to the dead-letter topic as stage `match.subscriptions` (every
/// instance reports them; the source topic/partition/offset headers identify duplicates).
public final class SubscriptionTableLoader: Service {
    private let follower: CompactedTopicFollower

    public init(
        table: SubscriptionTable, consumer: KafkaConsumer, producer: KafkaProducer, topic: String, partitions: Int32,
        deadLetterTopic: String, readiness: Readiness?, logger: Logger
    ) {
        follower = CompactedTopicFollower(
            name: "subscriptions", consumer: consumer, producer: producer, topic: topic, partitions: partitions,
            deadLetterTopic: deadLetterTopic, deadLetterStage: "match.subscriptions", readiness: readiness, logger: logger,
            onReady: {
                table.markReady()
                logger.info("subscription table caught up", metadata: ["subscriptions": .stringConvertible(table.count)])
            },
            apply: { message throws(Rejection.Reason) in try table.apply(key: message.keyString, value: message.value) })
    }

    public func run() async throws {
        try await follower.run()
    }
}
