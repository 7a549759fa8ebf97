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
        /// Until loaded: the end offset to reach (its high watermark when its reading began).
        var end: Int64?
    }

    /// The most messages one batch gathers from polls that came back full (a backlog being
    /// read): each batch is mapped on every core but begins with a poll on one thread and
    /// ends with its last chunk filed on one core, a gap per batch that one poll's 1,000
    /// messages repeated a thousand times in a 1M load (README, matcher benchmark, session
    /// 16). A poll that comes back short (the loader is following) ends the batch at once.
    static let backlogBatch = 16_000

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
            let (batches, others) = await pollBacklog()
            if !batches.isEmpty { await apply(batches, &readings) }
            for case .offsetOutOfRange(let partition, _, let reason) in others {
                logger.critical("\(name): records skipped, offset out of range on \(partition?.description ?? "?"): \(reason)")
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
            readings[partition] = Reading(epoch: epoch, next: nil, end: catchUp.remaining[TopicPartition(topic, partition)])
            if catchUp.isComplete { loaded(partition, &readings) }
        }
        try consumer.assign(readings.sorted { $0.key < $1.key }.map { partition, reading in
            TopicPartitionOffset(topic, partition, reading.next.map(KafkaOffset.init) ?? .beginning)
        })
        assigned = readings.mapValues(\.epoch)
        logger.info("\(name): reading partitions \(readings.keys.sorted()) of \(topic)")
    }

    /// Polls, then polls again while each poll comes back full, up to `backlogBatch`
    /// messages: the polls' message batches in order, and their other events.
    private func pollBacklog() async -> (messages: [[ConsumedMessage]], others: [ConsumerEvent]) {
        var batches: [[ConsumedMessage]] = []
        var others: [ConsumerEvent] = []
        let full = consumer.configuration.maxBatchSize
        var polled = 0
        repeat {
            var received = 0
            for event in await consumer.poll() {
                guard case .messages(let batch) = event else {
                    others.append(event)
                    continue
                }
                batches.append(batch)
                received += batch.count
            }
            polled += received
            guard received >= full else { break }
        } while polled + full <= Self.backlogBatch && !Task.isCancelled && !consumer.isClosed
        return (batches, others)
    }

    /// A message's place in the polls' batches.
    private struct Position: Sendable {
        var batch: Int
        var index: Int
    }

    /// Decodes and compiles the batches' subscriptions on every core, filing each in order as
    /// soon as it and those before it are ready (`ParallelBatch`). Messages are read in place
    /// by position: copying each (a retain and a release of its key, value, topic and
    /// headers) was about 1% of a load.
    private func apply(_ batches: [[ConsumedMessage]], _ readings: inout [Int32: Reading]) async {
        var rejected: [Rejection] = []
        let topic = topic
        let positions = batches.indices.flatMap { batch in
            batches[batch].indices.lazy.filter { batches[batch][$0].topic == topic }.map { Position(batch: batch, index: $0) }
        }
        let table = table
        await ParallelBatch().forEach(positions, map: {
            table.prepare(key: batches[$0.batch][$0.index].keyString, value: batches[$0.batch][$0.index].value)
        }) { number, record in
            let position = positions[number]
            let (partition, offset) = (batches[position.batch][position.index].partition, batches[position.batch][position.index].offset)
            guard var reading = readings[partition], reading.next.map({ offset >= $0 }) ?? true else { return }
            do throws(Rejection.Reason) {
                try table.apply(record, partition: partition, epoch: reading.epoch)
            } catch {
                rejected.append(Rejection(message: batches[position.batch][position.index], reason: error))
            }
            reading.next = offset + 1
            readings[partition] = reading
            if reading.end.map({ offset + 1 >= $0 }) == true { loaded(partition, &readings) }
        }
        guard !rejected.isEmpty else { return }
        for rejection in rejected { logger.warning("\(name): invalid record: \(rejection.reason)") }
        await send(rejected.map {
            DeadLetter.message(for: $0, stage: "match.subscriptions", topic: deadLetterTopic, maxBytes: producer.maxMessageBytes)
        }, what: "dead letters")
    }

    private func loaded(_ partition: Int32, _ readings: inout [Int32: Reading]) {
        guard let epoch = readings[partition]?.epoch else { return }
        readings[partition]?.end = nil
        table.markLoaded(partition: partition, epoch: epoch)
        logger.info("\(name): partition \(partition) loaded", metadata: [
            "subscriptions": .stringConvertible(table.counts[partition] ?? 0),
            "legacyKeys": .stringConvertible(table.legacyKeyCount),
        ])
    }

    /// Re-places the misplaced records of the loaded partitions: each written to its placement
    /// partition first, then tombstoned where it was (so it is never absent from the topic).
    private func replaceMisplaced(_ readings: [Int32: Reading]) async {
        let records = readings.filter { $0.value.end == nil }.flatMap { partition, reading in
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
