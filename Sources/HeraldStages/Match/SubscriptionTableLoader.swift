import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Reads the whole compacted `subscriptions` topic into a `SubscriptionTable` on the
/// instance that runs it (a `CompactedTopicFollower`: all partitions, from the beginning, no consumer
/// group), marks the table ready once it reached the end offsets seen at start, then keeps
/// following new subscriptions.
///
/// Each batch's subscriptions are decoded and compiled on every core (`ParallelBatch`),
/// then filed in the topic's order. Invalid subscriptions go to the dead-letter topic as stage `match.subscriptions` (every
/// instance reports them; the source topic/partition/offset headers identify duplicates).
public final class SubscriptionTableLoader: Service, ReadinessReporting {
    private let follower: CompactedTopicFollower

    /// Loads the context's `subscriptions` topic, with a consumer of its own (`consumer` names its purpose).
    public init(table: SubscriptionTable, consumer: String, context: StageContext) throws {
        follower = try CompactedTopicFollower(
            name: "subscriptions", consumer: consumer, topic: TopicCatalog.subscriptions,
            deadLetterStage: "match.subscriptions", context: context, onReady: Self.onReady(table, context.logger),
            applyBatch: Self.apply(table))
    }

    private static func onReady(_ table: SubscriptionTable, _ logger: Logger) -> @Sendable () -> Void {
        {
            table.markReady()
            logger.info("subscription table caught up", metadata: ["subscriptions": .stringConvertible(table.count)])
        }
    }

    /// Decodes and compiles the batch's subscriptions on every core, filing each in order as
    /// soon as it and those before it are ready (`ParallelBatch`).
    private static func apply(_ table: SubscriptionTable) -> CompactedTopicFollower.ApplyBatch {
        { batch in
            var rejected: [Rejection] = []
            await ParallelBatch().forEach(batch, map: { table.prepare(key: $0.keyString, value: $0.value) }) { offset, record in
                do throws(Rejection.Reason) {
                    try table.apply(record, partition: batch[offset].partition)
                } catch {
                    rejected.append(Rejection(message: batch[offset], reason: error))
                }
            }
            return rejected
        }
    }

    public var readinessConditions: [String] { follower.readinessConditions }

    public func run() async throws {
        try await follower.run()
    }
}
