import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Reads a whole (compacted) topic on every instance — all partitions, from the beginning,
/// no consumer group — handing each record to `apply`, calls `onReady` once it reached the
/// end offsets seen at start, then keeps following. Records `apply` refuses go to dead
/// letters, labelled with `deadLetterStage`, delivered like a stage's (`OutputDelivery`:
/// re-sent until acknowledged, reduced when too large); one that cannot be written at all
/// is logged at critical and counted, never dropped silently.
public final class CompactedTopicFollower: Service, ReadinessReporting {
    public typealias Apply = @Sendable (ConsumedMessage) throws(Rejection.Reason) -> Void
    /// Applies a batch in its order and returns the records it refused (a loader that
    /// prepares records in parallel, `SubscriptionTableLoader`).
    public typealias ApplyBatch = @Sendable ([ConsumedMessage]) async -> [Rejection]

    private let name: String
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let topic: String
    private let partitions: Int32
    private let deadLetterTopic: String
    private let apply: ApplyBatch
    private let onReady: @Sendable () -> Void
    private let deadLetterStage: String
    private let readiness: Readiness?
    private let logger: Logger
    private let metrics: StageMetrics
    private let delivery: OutputDelivery

    /// Follows a topic of the context's catalog, with a consumer of its own (`consumer`
    /// names its purpose, `StageContext.makeConsumer`).
    /// - Parameter deadLetterStage: the stage its dead letters name; default: `name`.
    public convenience init(
        name: String, consumer: String, topic: TopicCatalog.Topic, deadLetterStage: String? = nil, context: StageContext,
        onReady: @escaping @Sendable () -> Void, apply: @escaping Apply
    ) throws {
        try self.init(
            name: name, consumer: consumer, topic: topic, deadLetterStage: deadLetterStage, context: context, onReady: onReady,
            applyBatch: { batch in
                batch.compactMap { message in
                    do throws(Rejection.Reason) {
                        try apply(message)
                        return nil
                    } catch {
                        return Rejection(message: message, reason: error)
                    }
                }
            })
    }

    /// Follows a topic as `init(name:consumer:topic:deadLetterStage:context:onReady:apply:)`
    /// does, handing `applyBatch` each batch at once.
    public init(
        name: String, consumer: String, topic: TopicCatalog.Topic, deadLetterStage: String? = nil, context: StageContext,
        onReady: @escaping @Sendable () -> Void, applyBatch: @escaping ApplyBatch
    ) throws {
        let stage = deadLetterStage ?? name
        self.name = name
        self.consumer = try context.makeConsumer(consumer)
        self.producer = context.producer
        self.topic = context.name(topic)
        self.partitions = context.catalog.partitions
        self.deadLetterTopic = context.deadLetterTopic
        self.onReady = onReady
        self.deadLetterStage = stage
        self.readiness = context.readiness
        self.logger = context.logger
        self.apply = applyBatch
        let metrics = StageMetrics(stage: stage)
        self.metrics = metrics
        self.delivery = OutputDelivery(context: context, metrics: metrics)
    }

    /// The follower's name: ready once it caught up.
    public var readinessConditions: [String] { [name] }

    public func run() async throws {
        readiness?.register(name)
        var catchUp = try await CatchUp.measuring(topic: topic, partitions: partitions, with: consumer)
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        var ready = false
        if catchUp.isComplete {
            ready = true
            becomeReady()
        }
        for await event in consumer.events.cancelOnGracefulShutdown() {
            guard case .messages(let batch) = event else {
                if case .offsetOutOfRange(let partition, _, let reason) = event {
                    logger.critical("\(name): records skipped, offset out of range on \(partition?.description ?? "?"): \(reason)")
                }
                continue
            }
            let rejected = await apply(batch)
            for message in batch { catchUp.advance(past: message) }
            if !rejected.isEmpty {
                for rejection in rejected { logger.warning("\(name): invalid record: \(rejection.reason)") }
                await deadLetter(rejected)
            }
            if !ready && catchUp.isComplete {
                ready = true
                becomeReady()
            }
        }
        await consumer.close()
    }

    private func deadLetter(_ rejected: [Rejection]) async {
        await delivery.deadLetter(rejected, stage: deadLetterStage, name: name)
    }

    private func becomeReady() {
        onReady()
        readiness?.set(name, ready: true)
        logger.info("\(name) caught up with \(topic)")
    }
}
