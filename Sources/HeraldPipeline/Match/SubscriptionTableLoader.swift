import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Reads the whole compacted `subscriptions` topic into a `SubscriptionTable` on every
/// instance (all partitions, from the beginning, no consumer group offsets), marks it ready
/// once it reached the end offsets seen at start, then keeps following new subscriptions.
///
/// Invalid subscriptions go to the dead-letter topic (every instance reports them; the
/// source topic/partition/offset headers identify duplicates).
public final class SubscriptionTableLoader: Service {
    private let table: SubscriptionTable
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let topic: String
    private let partitions: Int32
    private let deadLetterTopic: String
    private let readiness: Readiness?
    private let logger: Logger

    public init(
        table: SubscriptionTable, consumer: KafkaConsumer, producer: KafkaProducer, topic: String, partitions: Int32,
        deadLetterTopic: String, readiness: Readiness?, logger: Logger
    ) {
        self.table = table
        self.consumer = consumer
        self.producer = producer
        self.topic = topic
        self.partitions = partitions
        self.deadLetterTopic = deadLetterTopic
        self.readiness = readiness
        self.logger = logger
        readiness?.register("subscriptions")
    }

    public func run() async throws {
        var remaining: [TopicPartition: Int64] = [:]
        for partition in 0..<partitions {
            let marks = try await consumer.watermarks(TopicPartition(topic, partition))
            if marks.high > marks.low { remaining[TopicPartition(topic, partition)] = marks.high }
        }
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        if remaining.isEmpty { becomeReady() }
        for await event in consumer.events.cancelOnGracefulShutdown() {
            guard case .messages(let batch) = event else {
                if case .offsetOutOfRange(let partition, _, let reason) = event {
                    logger.critical("subscriptions skipped: offset out of range on \(partition?.description ?? "?"): \(reason)")
                }
                continue
            }
            var rejected: [Rejection] = []
            for message in batch {
                do throws(Rejection.Reason) {
                    try table.apply(key: message.keyString, value: message.value)
                } catch {
                    rejected.append(Rejection(message: message, reason: error))
                }
                if let end = remaining[message.topicPartition], message.offset + 1 >= end {
                    remaining[message.topicPartition] = nil
                }
            }
            if !rejected.isEmpty {
                for rejection in rejected { logger.warning("invalid subscription: \(rejection.reason)") }
                _ = try? await producer.send(rejected.map {
                    DeadLetter.message(for: $0, stage: "match.subscriptions", topic: deadLetterTopic)
                })
            }
            if !table.isReady && remaining.isEmpty { becomeReady() }
        }
        await consumer.close()
    }

    private func becomeReady() {
        table.markReady()
        readiness?.set("subscriptions", ready: true)
        logger.info("subscription table caught up", metadata: ["subscriptions": .stringConvertible(table.count)])
    }
}
