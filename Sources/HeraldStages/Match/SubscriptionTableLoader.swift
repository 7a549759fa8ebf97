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
public final class SubscriptionTableLoader: Service, ReadinessReporting {
    private let follower: CompactedTopicFollower

    /// Loads the context's `subscriptions` topic, with a consumer of its own (`consumer` names its purpose).
    public init(table: SubscriptionTable, consumer: String, context: StageContext) throws {
        follower = try CompactedTopicFollower(
            name: "subscriptions", consumer: consumer, topic: TopicCatalog.subscriptions,
            deadLetterStage: "match.subscriptions", context: context, onReady: Self.onReady(table, context.logger),
            apply: Self.apply(table))
    }

    private static func onReady(_ table: SubscriptionTable, _ logger: Logger) -> @Sendable () -> Void {
        {
            table.markReady()
            logger.info("subscription table caught up", metadata: ["subscriptions": .stringConvertible(table.count)])
        }
    }

    private static func apply(_ table: SubscriptionTable) -> CompactedTopicFollower.Apply {
        { message throws(Rejection.Reason) in try table.apply(key: message.keyString, value: message.value, partition: message.partition) }
    }

    public var readinessConditions: [String] { follower.readinessConditions }

    public func run() async throws {
        try await follower.run()
    }
}
