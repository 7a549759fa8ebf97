import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import Logging
import Metrics
import ServiceLifecycle

/// The reader (docs/ARCHITECTURE.md §1.1): materializes `notifications`, `notification-reads` and the
/// badge counts of `badges` (§5.4) into the local `NotificationStore`, saving the consumed offsets in
/// the same transaction as the rows. Every reader instance reads every partition (no consumer
/// group), so any instance answers any user; a restart resumes exactly after the last
/// applied batch — unless the store was built from another cluster or partitioning (see
/// `StoreIdentity`): then it is rebuilt from the beginning of the topics. Undecodable records
/// go to dead letters before the batch is applied. A notification that cannot be stored
/// (undecodable, or its sequence taken by another notification) is dead-lettered, counted in
/// `herald_reader_notifications_rejected_total` and fails readiness (`reader.store`).
public final class ReaderService: Service {
    /// The topics the reader consumes (`HeraldStage.reader.inputTopics`).
    public struct Topics: Sendable {
        public var notifications: String
        public var reads: String
        /// `BadgeCount`s written by the compose stage.
        public var badges: String

        public init(notifications: String, reads: String, badges: String) {
            self.notifications = notifications
            self.reads = reads
            self.badges = badges
        }

        /// The catalog's topics.
        public init(_ catalog: TopicCatalog) {
            self.init(
                notifications: catalog.name(TopicCatalog.notifications), reads: catalog.name(TopicCatalog.notificationReads),
                badges: catalog.name(TopicCatalog.badges))
        }

        /// Transitional, for callers written when the reader read badges from `compose-state`:
        /// `composeState` is ignored and `badges` is the catalog topic under the prefix of
        /// `notifications`. Remove once no caller passes `composeState`.
        public init(notifications: String, reads: String, composeState: String) {
            let prefix = notifications.hasSuffix(TopicCatalog.notifications.baseName)
                ? String(notifications.dropLast(TopicCatalog.notifications.baseName.count)) : ""
            self.init(notifications: notifications, reads: reads, badges: prefix + TopicCatalog.badges.baseName)
        }

        var all: [String] { [notifications, reads, badges] }
    }

    /// How a batch the store or Kafka refused is retried: 200 ms, doubling up to 5 s.
    static let retry = RetryPolicy(initial: .milliseconds(200), maximum: .seconds(5))
    let store: NotificationStore
    let consumer: KafkaConsumer
    private let producer: KafkaProducer
    let topics: Topics
    let partitions: Int32
    private let deadLetterTopic: String
    private let onChanges: @Sendable (StoreChanges) -> Void
    let readiness: Readiness?
    let logger: Logger
    /// Appended to the brokers' cluster ID in the store's identity (the embedded broker's run).
    let clusterQualifier: String?
    private let rejectedUndecodable: Counter
    private let rejectedConflicts: Counter
    /// The readiness condition that fails for good once a notification could not be stored.
    public static let storeCondition = "reader.store"
    /// How often retention by age runs.
    public let pruneInterval: Duration

    public init(
        store: NotificationStore, consumer: KafkaConsumer, producer: KafkaProducer, topics: Topics, partitions: Int32,
        deadLetterTopic: String, readiness: Readiness?, logger: Logger, pruneInterval: Duration = .seconds(600),
        clusterQualifier: String? = nil, metrics: any MetricsFactory = MetricsSystem.factory,
        onChanges: @escaping @Sendable (StoreChanges) -> Void
    ) {
        self.store = store
        self.consumer = consumer
        self.producer = producer
        self.topics = topics
        self.partitions = partitions
        self.deadLetterTopic = deadLetterTopic
        self.readiness = readiness
        self.logger = logger
        self.pruneInterval = pruneInterval
        self.onChanges = onChanges
        self.clusterQualifier = clusterQualifier
        let label = "herald_reader_notifications_rejected_total"
        rejectedUndecodable = Counter(label: label, dimensions: [("reason", "undecodable")], factory: metrics)
        rejectedConflicts = Counter(label: label, dimensions: [("reason", "sequence_conflict")], factory: metrics)
        readiness?.register("reader")
        readiness?.set(Self.storeCondition, ready: true)
    }

    public func run() async throws {
        guard let (saved, watermarks) = try await prepareStore() else {
            await consumer.close()
            return
        }
        var positions: [TopicPartitionOffset] = []
        var remaining: [TopicPartition: Int64] = [:]
        for (topicPartition, marks) in watermarks.sorted(by: { $0.key < $1.key }) {
            let start = saved[topicPartition]
            positions.append(TopicPartitionOffset(topicPartition, start.map { KafkaOffset($0) } ?? .beginning))
            if marks.high > max(start ?? marks.low, marks.low) { remaining[topicPartition] = marks.high }
        }
        try consumer.assign(positions)
        var ready = remaining.isEmpty
        if ready { becomeReady() }
        logger.info("reader started", metadata: ["resumed partitions": .stringConvertible(saved.count)])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.pruneRegularly() }
            for await event in consumer.events.cancelOnGracefulShutdown() {
                switch event {
                case .messages(let batch):
                    try await apply(batch)
                    for message in batch {
                        if let end = remaining[message.topicPartition], message.offset + 1 >= end {
                            remaining[message.topicPartition] = nil
                        }
                    }
                    if !ready && remaining.isEmpty {
                        ready = true
                        becomeReady()
                    }
                case .offsetOutOfRange(let partition, let offset, let reason):
                    logger.critical("DATA LOSS: reader position \(offset) on \(partition?.description ?? "?") is gone: \(reason)")
                default:
                    break
                }
            }
            group.cancelAll()
        }
        await consumer.close()
    }

    private func becomeReady() {
        readiness?.set("reader", ready: true)
        logger.info("reader caught up")
    }

    /// Decodes, dead-letters what cannot be read, and applies the rest with the offsets;
    /// retried with back-off until it succeeds (nothing is skipped).
    private func apply(_ batch: [ConsumedMessage]) async throws {
        var storeBatch = StoreBatch()
        var rejected: [Rejection] = []
        var next: [TopicPartition: Int64] = [:]
        var sources: [String: ConsumedMessage] = [:]
        let codec = WireCodec()
        for message in batch {
            next[message.topicPartition] = max(next[message.topicPartition] ?? 0, message.offset + 1)
            do throws(Rejection.Reason) {
                try decode(message, codec: codec, into: &storeBatch)
                if message.topic == topics.notifications, let last = storeBatch.notifications.last {
                    sources[last.notificationID] = message
                }
            } catch {
                rejected.append(Rejection(message: message, reason: error))
            }
        }
        let undecodable = rejected.filter { $0.message.topic == topics.notifications }.count
        storeBatch.offsets = next.map { ConsumedOffset(topic: $0.key.topic, partition: $0.key.partition, nextOffset: $0.value) }
        var attempt = 0
        while true {
            do {
                if !rejected.isEmpty {
                    _ = try await producer.send(rejected.map { DeadLetter.message(
                        for: $0, stage: "reader", topic: deadLetterTopic, maxBytes: producer.maxMessageBytes) })
                    for rejection in rejected { logger.warning("reader rejected a record: \(rejection.reason)") }
                    rejected = []
                    if undecodable > 0 {
                        rejectedUndecodable.increment(by: undecodable)
                        failStore("\(undecodable) notification(s) could not be decoded; see the dead letters of stage reader")
                    }
                }
                let changes = try await store.apply(storeBatch)
                if !changes.sequenceConflicts.isEmpty {
                    try await reject(changes.sequenceConflicts, sources: sources)
                }
                onChanges(changes)
                return
            } catch {
                attempt += 1
                if Task.isCancelled || Task.isShuttingDownGracefully { throw error }
                let pause = Self.retry.pause(after: attempt)
                logger.error("reader batch failed (attempt \(attempt)), retrying in \(pause): \(error)")
                try await Task.sleep(for: pause)
            }
        }
    }

    /// Dead-letters notifications whose (recipient, container, sequence) another notification
    /// already holds, counts them and fails readiness. The store is known to come from this
    /// cluster (`prepareStore`), so a conflict means the compose stage numbered two
    /// notifications alike (its state was lost or forked): storing either silently would hide
    /// one from the user. The first stays; the second waits in dead letters for a replay
    /// once the cause is fixed.
    private func reject(_ conflicts: [HeraldNotification], sources: [String: ConsumedMessage]) async throws {
        let letters = conflicts.compactMap { conflict -> OutgoingMessage? in
            guard let source = sources[conflict.notificationID] else { return nil }
            let reason = Rejection.Reason(
                code: "SEQUENCE_CONFLICT",
                "sequence \(conflict.sequence) of \(conflict.recipient) in \(conflict.containerIdentifier) is held by another notification")
            return DeadLetter.message(for: Rejection(message: source, reason: reason), stage: "reader", topic: deadLetterTopic, maxBytes: producer.maxMessageBytes)
        }
        if !letters.isEmpty { _ = try await producer.send(letters) }
        for conflict in conflicts {
            logger.error("notification \(conflict.notificationID) reuses sequence \(conflict.sequence) of \(conflict.recipient); not stored, sent to dead letters")
        }
        rejectedConflicts.increment(by: conflicts.count)
        failStore("\(conflicts.count) notification(s) reuse a sequence another notification holds (last: \(conflicts.last!.notificationID) of \(conflicts.last!.recipient)); see the dead letters of stage reader")
    }

    /// Marks the store not ready for good: what it serves misses notifications.
    private func failStore(_ reason: String) {
        readiness?.set(Self.storeCondition, ready: false, reason: reason)
    }

    private func decode(_ message: ConsumedMessage, codec: WireCodec, into batch: inout StoreBatch) throws(Rejection.Reason) {
        guard let value = message.value else {
            if message.topic == topics.badges { return }  // a deleted key: the stored count stays
            throw .invalid("a \(message.topic) record cannot be null")
        }
        do {
            switch message.topic {
            case topics.notifications:
                batch.notifications.append(try EncodedNotification(json: value))
            case topics.reads:
                batch.reads.append(try codec.decode(NotificationRead.self, from: value))
            case topics.badges:
                batch.badges.append(try codec.decode(BadgeCount.self, from: value))
            default:
                throw Rejection.Reason.invalid("the reader does not read \(message.topic)")
            }
        } catch let reason as Rejection.Reason {
            throw reason
        } catch {
            throw .undecodable("\(error)")
        }
    }

    private func pruneRegularly() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: pruneInterval)
            if Task.isCancelled { return }
            do {
                let report = try await store.prune(now: Date())
                if report.notificationsRemoved > 0 {
                    logger.info("retention removed \(report.notificationsRemoved) notifications")
                }
            } catch {
                logger.error("retention failed: \(error)")
            }
        }
    }
}
