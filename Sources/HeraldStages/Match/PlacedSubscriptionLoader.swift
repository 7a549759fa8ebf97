import Foundation
import HeraldKafka
import Logging
import ServiceLifecycle

/// Reads into a `PlacedSubscriptionTable` the partitions of the compacted `subscriptions`
/// topic that the table holds — the partition numbers of the match stage's assignment —
/// each from its beginning (marking it loaded once it reached the end offset it had when its
/// reading began), then follows them; drops what is released (docs/ARCHITECTURE.md §9).
///
/// One consumer outside any group: between polls it compares the table's held partitions
/// (and their epochs) with what it reads and assigns the difference, so a new hold is
/// noticed within a poll timeout.
///
/// Re-placement: live records found on a partition other than their placement (written
/// before placement existed, or by a tool that does not place) are written again under the
/// same key to their placement partition and only then tombstoned where they were, once that
/// partition is loaded. Each batch's subscriptions are decoded and compiled on every core
/// (`ParallelBatch`), then filed in the topic's order. Invalid subscriptions go to the dead-letter topic as stage
/// `match.subscriptions`.
public final class PlacedSubscriptionLoader: Service, ReadinessReporting {
    private struct Reading {
        var epoch: UInt64
        /// The next offset to read; `nil`: from the beginning.
        var next: Int64?
        /// Until loaded: the end to reach.
        var catchUp: CatchUp?
    }

    /// The readiness condition and log prefix (the API's directory follows as `subscriptions`).
    private let name = "match.subscriptions"
    private let table: PlacedSubscriptionTable
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let topic: String
    private let deadLetterTopic: String
    private let readiness: Readiness?
    private let logger: Logger
    private let metrics: StageMetrics
    private let delivery: OutputDelivery

    /// Loads the context's `subscriptions` topic, with a consumer of its own (`consumer` names its purpose).
    public init(table: PlacedSubscriptionTable, consumer: String, context: StageContext) throws {
        self.table = table
        self.consumer = try context.makeConsumer(consumer)
        self.producer = context.producer
        self.topic = context.name(TopicCatalog.subscriptions)
        self.deadLetterTopic = context.deadLetterTopic
        self.readiness = context.readiness
        self.logger = context.logger
        let metrics = StageMetrics(stage: "match.subscriptions")
        self.metrics = metrics
        self.delivery = OutputDelivery(context: context, metrics: metrics)
    }

    /// Ready while every held partition is loaded.
    public var readinessConditions: [String] { [name] }

    public func run() async throws {
        readiness?.register(name)
        var readings: [Int32: Reading] = [:]
        /// The epochs the consumer was last assigned (an assignment that failed is redone).
        var assigned: [Int32: UInt64] = [:]
        while !Task.isCancelled, !Task.isShuttingDownGracefully, !consumer.isClosed {
            do {
                try await followAssignment(&readings, assigned: &assigned)
            } catch {
                // A broker that cannot answer now (watermarks, assign) is asked again: the
                // processor keeps waiting for the partitions meanwhile, nothing is matched half loaded.
                logger.warning("\(name): could not follow the assignment, retrying: \(error)")
                try? await Task.sleep(for: .milliseconds(500))
                continue
            }
            for event in await consumer.poll() {
                switch event {
                case .messages(let batch):
                    await apply(batch, &readings)
                case .offsetOutOfRange(let partition, _, let reason):
                    logger.critical("\(name): records skipped, offset out of range on \(partition?.description ?? "?"): \(reason)")
                default:
                    continue
                }
            }
            await replaceMisplaced(readings)
            readiness?.set(name, ready: table.isReady)
        }
        await consumer.close()
    }

    /// Assigns the table's held partitions: new ones (or new epochs) from the beginning, the
    /// others where they are; forgets released ones.
    private func followAssignment(_ readings: inout [Int32: Reading], assigned: inout [Int32: UInt64]) async throws {
        let held = table.heldPartitions
        guard held != assigned else { return }
        readings = readings.filter { held[$0.key] == $0.value.epoch }
        for (partition, epoch) in held where readings[partition] == nil {
            let catchUp = try await CatchUp.measuring([TopicPartition(topic, partition)]) { try await consumer.watermarks($0) }
            readings[partition] = Reading(epoch: epoch, next: nil, catchUp: catchUp)
            if catchUp.isComplete { loaded(partition, &readings) }
        }
        try consumer.assign(readings.sorted { $0.key < $1.key }.map { partition, reading in
            TopicPartitionOffset(topic, partition, reading.next.map(KafkaOffset.init) ?? .beginning)
        })
        assigned = readings.mapValues(\.epoch)
        logger.info("\(name): reading partitions \(readings.keys.sorted()) of \(topic)")
    }

    /// Decodes and compiles the batch's subscriptions on every core, filing each in order as
    /// soon as it and those before it are ready (`ParallelBatch`).
    private func apply(_ batch: [ConsumedMessage], _ readings: inout [Int32: Reading]) async {
        var rejected: [Rejection] = []
        let messages = batch.filter { $0.topic == topic }
        let table = table
        await ParallelBatch().forEach(messages, map: { table.prepare(key: $0.keyString, value: $0.value) }) { offset, record in
            let message = messages[offset]
            let partition = message.partition
            guard var reading = readings[partition], reading.next.map({ message.offset >= $0 }) ?? true else { return }
            do throws(Rejection.Reason) {
                try table.apply(record, partition: partition, epoch: reading.epoch)
            } catch {
                rejected.append(Rejection(message: message, reason: error))
            }
            reading.next = message.offset + 1
            reading.catchUp?.advance(past: message)
            readings[partition] = reading
            if reading.catchUp?.isComplete == true { loaded(partition, &readings) }
        }
        guard !rejected.isEmpty else { return }
        for rejection in rejected { logger.warning("\(name): invalid record: \(rejection.reason)") }
        await send(rejected.map {
            DeadLetter.message(for: $0, stage: "match.subscriptions", topic: deadLetterTopic, maxBytes: producer.maxMessageBytes)
        }, what: "dead letters")
    }

    private func loaded(_ partition: Int32, _ readings: inout [Int32: Reading]) {
        guard let epoch = readings[partition]?.epoch else { return }
        readings[partition]?.catchUp = nil
        table.markLoaded(partition: partition, epoch: epoch)
        logger.info("\(name): partition \(partition) loaded", metadata: [
            "subscriptions": .stringConvertible(table.counts[partition] ?? 0),
            "legacyKeys": .stringConvertible(table.legacyKeyCount),
        ])
    }

    /// Re-places the misplaced records of the loaded partitions: each written to its placement
    /// partition first, then tombstoned where it was (so it is never absent from the topic).
    private func replaceMisplaced(_ readings: [Int32: Reading]) async {
        let records = readings.filter { $0.value.catchUp == nil }.flatMap { partition, reading in
            table.takeMisplaced(partition: partition, epoch: reading.epoch)
        }
        let placed = records.map { OutgoingMessage(topic: topic, partition: $0.placement, key: $0.key, value: $0.value) }
        let tombstones = records.map { OutgoingMessage(topic: topic, partition: $0.partition, key: $0.key, value: nil) }
        guard !placed.isEmpty else {
            _ = table.takeRetired(among: [])
            return
        }
        logger.notice("\(name): re-placing \(placed.count) subscriptions found on another partition than their owner's")
        guard await send(placed, what: "re-placed subscriptions") else { return }
        // A fires-once subscription retired while its copy was being re-placed: its
        // retirement's tombstone may precede the re-placed record; tombstone it again after.
        let retired = table.takeRetired(among: records.map(\.key))
        let again = records.filter { retired.contains($0.key) }.map {
            OutgoingMessage(topic: topic, partition: $0.placement, key: $0.key, value: nil)
        }
        await send(tombstones + again, what: "tombstones of re-placed subscriptions")
    }

    @discardableResult
    private func send(_ messages: [OutgoingMessage], what: String) async -> Bool {
        do {
            let delivered = try await delivery.deliver(messages)
            metrics.deadLettered.increment(by: delivered.deadLetters)
            return true
        } catch {
            logger.critical("\(name): \(messages.count) \(what) not written: \(error)")
            return false
        }
    }
}
