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
public final class ReaderService: Service, ReadinessReporting {
    /// The role of an input topic.
    enum Input: Sendable {
        case notifications, reads, badges
    }

    /// How a batch the store or Kafka refused is retried: 200 ms, doubling up to 5 s.
    static let retry = RetryPolicy(initial: .milliseconds(200), maximum: .seconds(5))
    /// How often the store's log is checkpointed beside the writer (`WALCheckpointer`):
    /// often enough that the log stays a few hundred pages at the reader's full rate.
    static let checkpointInterval = Duration.milliseconds(100)
    let store: NotificationStore
    let consumer: KafkaConsumer
    private let producer: KafkaProducer
    let topics: TopicNames
    /// The input topics' roles.
    let routes: TopicRoutes<Input>
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

    /// The reader of the context's catalog (its topics and partition count), with a consumer
    /// of its own (`consumer` names its purpose, `StageContext.makeConsumer`).
    /// - Parameter onChanges: hears of what each applied batch changed.
    public init(
        store: NotificationStore, consumer: String = "reader", context: StageContext, pruneInterval: Duration = .seconds(600),
        clusterQualifier: String? = nil, metrics: any MetricsFactory = MetricsSystem.factory,
        onChanges: @escaping @Sendable (StoreChanges) -> Void
    ) throws {
        let topics = context.topics
        self.store = store
        self.consumer = try context.makeConsumer(consumer)
        self.producer = context.producer
        self.topics = topics
        self.routes = TopicRoutes(
            stage: "reader", [topics.notifications: .notifications, topics.notificationReads: .reads, topics.badges: .badges])
        self.partitions = context.catalog.partitions
        self.deadLetterTopic = context.deadLetterTopic
        self.readiness = context.readiness
        self.logger = context.logger
        self.pruneInterval = pruneInterval
        self.onChanges = onChanges
        self.clusterQualifier = clusterQualifier
        let label = "herald_reader_notifications_rejected_total"
        rejectedUndecodable = Counter(label: label, dimensions: [("reason", "undecodable")], factory: metrics)
        rejectedConflicts = Counter(label: label, dimensions: [("reason", "sequence_conflict")], factory: metrics)
    }

    /// `reader`: ready once caught up. (`reader.store` is ready until a notification
    /// cannot be stored.)
    public var readinessConditions: [String] { ["reader"] }

    public func run() async throws {
        readiness?.register("reader")
        readiness?.set(Self.storeCondition, ready: true)
        guard let (saved, watermarks) = try await prepareStore() else {
            await consumer.close()
            return
        }
        let positions = watermarks.keys.sorted().map { TopicPartitionOffset($0, saved[$0].map { KafkaOffset($0) } ?? .beginning) }
        var catchUp = CatchUp(watermarks: watermarks, start: saved)
        try consumer.assign(positions)
        var ready = catchUp.isComplete
        if ready { becomeReady() }
        logger.info("reader started", metadata: ["resumed partitions": .stringConvertible(saved.count)])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.pruneRegularly() }
            if let checkpointer = store.makeCheckpointer() {
                group.addTask { await checkpointer.checkpointRegularly(every: Self.checkpointInterval, logger: self.logger) }
            }
            for await event in consumer.events.cancelOnGracefulShutdown() {
                switch event {
                case .messages(let batch):
                    try await apply(batch)
                    catchUp.advance(past: batch)
                    if !ready && catchUp.isComplete {
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
                if routes[message.topic] == .notifications, let last = storeBatch.notifications.last {
                    sources[last.notificationID] = message
                }
            } catch {
                rejected.append(Rejection(message: message, reason: error))
            }
        }
        let undecodable = rejected.filter { routes[$0.message.topic] == .notifications }.count
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
                try await Self.retry.pauseOrStop(after: attempt, error: error, logger: logger, "reader batch failed")
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
        let role = try routes.role(of: message)
        guard let value = message.value else {
            if role == .badges { return }  // a deleted key: the stored count stays
            throw .invalid("a \(message.topic) record cannot be null")
        }
        do {
            switch role {
            case .notifications:
                batch.notifications.append(try EncodedNotification(json: value))
            case .reads:
                batch.reads.append(try codec.decode(NotificationRead.self, from: value))
            case .badges:
                batch.badges.append(try codec.decode(BadgeCount.self, from: value))
            }
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
