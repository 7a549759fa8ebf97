import Foundation
import HeraldKafka
import HeraldReader
import Logging
import ServiceLifecycle
import Synchronization

/// Files the whole compacted `subscriptions` topic (all partitions, no consumer group) into
/// a `StoredSubscriptionDirectory`, saving the consumed offsets in the same transaction as
/// the rows: a restart resumes after the last filed batch instead of reading the topic
/// again, unless the store was built from another cluster or partitioning
/// (`StoreIdentity`, as the reader checks its store) — then it is rebuilt from the
/// beginning. Ready (condition `subscriptions`, as the in-memory table's loader was) once it
/// reached the end offsets the partitions had at start; then it keeps following.
///
/// Each batch's subscriptions are decoded and compiled on every core (`ParallelBatch`),
/// then filed in the topic's order. Records the directory refuses (undecodable, invalid,
/// duplicates) go to the dead-letter topic as stage `api.subscriptions`, once: their offsets
/// are saved with the batch. A batch the database refused is retried with back-off.
public final class SubscriptionDirectoryLoader: Service, ReadinessReporting {
    /// The readiness condition and log prefix.
    static let name = "subscriptions"
    /// How a batch the store refused is retried: 200 ms, doubling up to 5 s.
    static let retry = RetryPolicy(initial: .milliseconds(200), maximum: .seconds(5))
    let directory: StoredSubscriptionDirectory
    let consumer: KafkaConsumer
    let topic: String
    let partitions: Int32
    let readiness: Readiness?
    let logger: Logger
    /// Appended to the brokers' cluster ID in the store's identity (the embedded broker's run).
    let clusterQualifier: String?
    private let delivery: OutputDelivery
    private let read = Atomic<Int>(0)

    /// How many records of the topic this loader has read since it started (a restart that
    /// resumes from saved offsets reads only what came since).
    public var recordsRead: Int { read.load(ordering: .relaxed) }

    /// Files the context's `subscriptions` topic, with a consumer of its own (`consumer`
    /// names its purpose, `StageContext.makeConsumer`).
    public init(
        directory: StoredSubscriptionDirectory, consumer: String = "api-subscriptions", context: StageContext,
        clusterQualifier: String? = nil
    ) throws {
        self.directory = directory
        self.consumer = try context.makeConsumer(consumer)
        self.topic = context.name(TopicCatalog.subscriptions)
        self.partitions = context.catalog.partitions
        self.readiness = context.readiness
        self.logger = context.logger
        self.clusterQualifier = clusterQualifier
        self.delivery = OutputDelivery(context: context, metrics: StageMetrics(stage: "api.subscriptions"))
    }

    public var readinessConditions: [String] { [Self.name] }

    public func run() async throws {
        readiness?.register(Self.name)
        guard let (saved, watermarks) = try await prepareStore() else {
            await consumer.close()
            return
        }
        var catchUp = CatchUp(watermarks: watermarks, start: saved)
        try consumer.assign(watermarks.keys.sorted().map { TopicPartitionOffset($0, saved[$0].map { KafkaOffset($0) } ?? .beginning) })
        var ready = false
        if catchUp.isComplete {
            ready = true
            becomeReady()
        }
        logger.info("\(Self.name): filing \(topic) into the subscription directory", metadata: [
            "resumed partitions": .stringConvertible(saved.count)])
        let checkpoints = directory.store.makeCheckpointer().map { checkpointer in
            Task { await checkpointer.checkpointRegularly(every: ReaderService.checkpointInterval, logger: logger) }
        }
        defer { checkpoints?.cancel() }
        // The previous batch's filing, still running while the next batch is prepared (on
        // every core): filing is serial, in the store's writer, and this overlaps the two.
        var filing: Task<Void, any Error>?
        for await event in consumer.events.cancelOnGracefulShutdown() {
            switch event {
            case .messages(let batch):
                let (messages, records) = await prepare(batch)
                try await filing?.value
                filing = Task { try await self.file(records, of: messages) }
                catchUp.advance(past: batch)
                if !ready && catchUp.isComplete {
                    try await filing?.value
                    ready = true
                    becomeReady()
                }
            case .offsetOutOfRange(let partition, _, let reason):
                logger.critical("\(Self.name): records skipped, offset out of range on \(partition?.description ?? "?"): \(reason)")
            default:
                continue
            }
        }
        try await filing?.value
        await consumer.close()
    }

    private func becomeReady() {
        directory.markReady()
        readiness?.set(Self.name, ready: true)
        logger.info("\(Self.name): subscription directory caught up with \(topic)")
    }

    /// Decodes, checks and compiles the batch's subscriptions on every core (`ParallelBatch`).
    private func prepare(_ batch: [ConsumedMessage]) async -> ([ConsumedMessage], [(record: DirectoryRecord, partition: Int32?)]) {
        let messages = batch.filter { $0.topic == topic }
        read.add(messages.count, ordering: .relaxed)
        var records: [(record: DirectoryRecord, partition: Int32?)] = []
        records.reserveCapacity(messages.count)
        let directory = directory
        await ParallelBatch().forEach(messages, map: { directory.prepare(key: $0.keyString, value: $0.value) }) { offset, record in
            records.append((record, messages[offset].partition))
        }
        return (messages, records)
    }

    /// Files prepared records with their offsets (retried until the store takes them), then
    /// dead-letters what the directory refused.
    private func file(_ records: [(record: DirectoryRecord, partition: Int32?)], of messages: [ConsumedMessage]) async throws {
        var next: [TopicPartition: Int64] = [:]
        for message in messages { next[message.topicPartition] = max(next[message.topicPartition] ?? 0, message.offset + 1) }
        let offsets = next.map { ConsumedOffset(topic: $0.key.topic, partition: $0.key.partition, nextOffset: $0.value) }
        var attempt = 0
        while true {
            do {
                let refused = try await directory.apply(records, offsets: offsets)
                guard !refused.isEmpty else { return }
                let rejected = refused.sorted { $0.key < $1.key }.map { Rejection(message: messages[$0.key], reason: $0.value) }
                for rejection in rejected { logger.warning("\(Self.name): invalid record: \(rejection.reason)") }
                await deadLetter(rejected)
                return
            } catch {
                attempt += 1
                try await Self.retry.pauseOrStop(after: attempt, error: error, logger: logger, "\(Self.name): filing a batch failed")
            }
        }
    }

    private func deadLetter(_ rejected: [Rejection]) async {
        await delivery.deadLetter(rejected, stage: "api.subscriptions", name: Self.name)
    }
}
