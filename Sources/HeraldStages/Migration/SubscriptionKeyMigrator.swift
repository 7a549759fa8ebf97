import Foundation
import HeraldKafka
import Logging

/// Runs a `SubscriptionKeyMigration` against a cluster (`herald subscriptions migrate`):
/// reads every partition of the `subscriptions` topic from the beginning to the end offsets
/// seen at start (no consumer group is joined or committed), then — unless a dry run —
/// publishes the re-keyed subscriptions, waits for their acknowledgement, and only then
/// tombstones the old keys, so no subscription is ever absent from the topic.
public struct SubscriptionKeyMigrator {
    public let consumer: KafkaConsumer
    public let producer: KafkaProducer
    public let topic: String
    /// The topic's partitions (from the cluster's metadata).
    public let partitions: [Int32]
    public let logger: Logger

    public init(consumer: KafkaConsumer, producer: KafkaProducer, topic: String, partitions: [Int32], logger: Logger) {
        self.consumer = consumer
        self.producer = producer
        self.topic = topic
        self.partitions = partitions
        self.logger = logger
    }

    /// Reads the topic and migrates it. The consumer must report partition ends
    /// (`ConsumerConfiguration.reportsPartitionEnds`): a partition counts as read only at its
    /// end, including one whose last offsets are never delivered (transaction markers,
    /// records compaction removed). Nothing less will do: a migration planned from part of
    /// the topic could re-key an old record over a newer one it did not read.
    /// - Parameters:
    ///   - dryRun: read and report only; send nothing.
    ///   - timeout: how long reading to the end may take.
    /// - Throws: `KafkaError`, or `PipelineError` when the consumer does not report partition
    ///   ends (`CONFIGURATION`) or the end was not reached within `timeout` (`KAFKA`; nothing
    ///   is sent then).
    public func run(dryRun: Bool, timeout: Duration = .seconds(120)) async throws -> SubscriptionKeyMigration.Report {
        var migration = SubscriptionKeyMigration()
        do {
            guard consumer.configuration.reportsPartitionEnds else {
                throw PipelineError(
                    code: .configuration, reason: "the migration's consumer must report partition ends (reportsPartitionEnds)",
                    location: topic)
            }
            try await read(into: &migration, timeout: timeout)
        } catch {
            await consumer.close()
            throw error
        }
        await consumer.close()
        let (republish, tombstones, report) = migration.plan(
            topic: topic, placement: partitions.isEmpty ? nil : SubscriptionPlacement(partitions: Int32(partitions.count)))
        var result = report
        result.dryRun = dryRun
        guard !dryRun else { return result }
        _ = try await producer.send(republish)
        _ = try await producer.send(tombstones)
        logger.info("subscriptions migrated", metadata: ["report": "\(result)"])
        return result
    }

    private func read(into migration: inout SubscriptionKeyMigration, timeout: Duration) async throws {
        var catchUp = try await CatchUp.measuring(partitions.map { TopicPartition(topic, $0) }) {
            try await consumer.watermarks($0)
        }
        guard !catchUp.isComplete else { return }
        try consumer.assign(partitions.map { TopicPartitionOffset(topic, $0, .beginning) })
        let outcome = try await catchUp.read(from: consumer, until: ContinuousClock.now + timeout) {
            if $0.topic == topic { migration.read($0) }
        }
        let pending = catchUp.remaining.keys.map(\.partition).sorted()
        switch outcome {
        case .complete:
            break
        case .timedOut:
            throw PipelineError(
                code: .kafka, reason: "could not read to the end within \(timeout); nothing was sent",
                location: "\(topic) partitions \(pending)")
        }
    }
}
