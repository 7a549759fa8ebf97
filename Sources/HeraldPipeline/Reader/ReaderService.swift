import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldModel
import HeraldReader
import Logging
import ServiceLifecycle

/// The reader (DESIGN §1): materializes `notifications`, `notification-reads` and the badge
/// counts of `compose-state` into the local `NotificationStore`, saving the consumed offsets in
/// the same transaction as the rows. Every reader instance reads every partition (no consumer
/// group), so any instance answers any user; a restart resumes exactly after the last
/// applied batch. Undecodable records go to dead letters before the batch is applied.
public final class ReaderService: Service {
    public struct Topics: Sendable {
        public var notifications: String
        public var reads: String
        public var composeState: String

        public init(notifications: String, reads: String, composeState: String) {
            self.notifications = notifications
            self.reads = reads
            self.composeState = composeState
        }

        var all: [String] { [notifications, reads, composeState] }
    }

    private let store: NotificationStore
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let topics: Topics
    private let partitions: Int32
    private let deadLetterTopic: String
    private let onChanges: @Sendable (StoreChanges) -> Void
    private let readiness: Readiness?
    private let logger: Logger
    /// How often retention by age runs.
    public let pruneInterval: Duration

    public init(
        store: NotificationStore, consumer: KafkaConsumer, producer: KafkaProducer, topics: Topics, partitions: Int32,
        deadLetterTopic: String, readiness: Readiness?, logger: Logger, pruneInterval: Duration = .seconds(600),
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
        readiness?.register("reader")
    }

    public func run() async throws {
        let saved = Dictionary(
            try await store.offsets().map { (TopicPartition($0.topic, $0.partition), $0.nextOffset) },
            uniquingKeysWith: max)
        var positions: [TopicPartitionOffset] = []
        var remaining: [TopicPartition: Int64] = [:]
        for topic in topics.all {
            for partition in 0..<partitions {
                let topicPartition = TopicPartition(topic, partition)
                let start = saved[topicPartition]
                positions.append(TopicPartitionOffset(topicPartition, start.map { KafkaOffset($0) } ?? .beginning))
                let marks = try await consumer.watermarks(topicPartition)
                if marks.high > max(start ?? marks.low, marks.low) { remaining[topicPartition] = marks.high }
            }
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
        let codec = WireCodec()
        for message in batch {
            next[message.topicPartition] = max(next[message.topicPartition] ?? 0, message.offset + 1)
            do throws(Rejection.Reason) {
                try decode(message, codec: codec, into: &storeBatch)
            } catch {
                rejected.append(Rejection(message: message, reason: error))
            }
        }
        storeBatch.offsets = next.map { ConsumedOffset(topic: $0.key.topic, partition: $0.key.partition, nextOffset: $0.value) }
        var attempt = 0
        while true {
            do {
                if !rejected.isEmpty {
                    _ = try await producer.send(rejected.map { DeadLetter.message(
                        for: $0, stage: "reader", topic: deadLetterTopic, maxBytes: producer.maxMessageBytes) })
                    for rejection in rejected { logger.warning("reader rejected a record: \(rejection.reason)") }
                    rejected = []
                }
                let changes = try await store.apply(storeBatch)
                for conflict in changes.sequenceConflicts {
                    logger.error("notification \(conflict.notificationID) reuses sequence \(conflict.sequence) of \(conflict.recipient); not stored")
                }
                onChanges(changes)
                return
            } catch {
                attempt += 1
                if Task.isCancelled || Task.isShuttingDownGracefully { throw error }
                let pause = Duration.milliseconds(min(5_000, 100 << min(attempt, 6)))
                logger.error("reader batch failed (attempt \(attempt)), retrying in \(pause): \(error)")
                try await Task.sleep(for: pause)
            }
        }
    }

    private func decode(_ message: ConsumedMessage, codec: WireCodec, into batch: inout StoreBatch) throws(Rejection.Reason) {
        guard let value = message.value else {
            if message.topic == topics.composeState { return }  // a forgotten user: nothing to show
            throw .invalid("a \(message.topic) record cannot be null")
        }
        do {
            switch message.topic {
            case topics.notifications:
                batch.encodedNotifications.append(try EncodedNotification(json: value))
            case topics.reads:
                batch.reads.append(try codec.decode(NotificationRead.self, from: value))
            case topics.composeState:
                let state = try codec.decode(UserStreamState.self, from: value)
                for (container, badge) in state.badges.sorted(by: { $0.key < $1.key }) {
                    batch.badges.append(BadgeCount(recipient: state.recipient, container: container, badge: badge))
                }
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
