import CRdKafka
import Logging
import Synchronization

/// A Kafka consumer: group subscription or manual assignment, pulled as batches of events.
///
/// Offsets are stored only through `store(_:)` — after the caller has processed a batch —
/// and committed in the background, synchronously before partitions are handed over, and
/// on `commit()`. Blocking librdkafka calls run on the consumer's own executors.
public final class KafkaConsumer: Sendable {
    public let configuration: ConsumerConfiguration
    private let client: RdKafkaClient
    private let poller: ConsumerPoller
    private let pump: KafkaEventPump
    private let pollExecutor: BlockingExecutor
    private let controlExecutor: BlockingExecutor
    private let closed = Atomic<Bool>(false)

    /// Creates the consumer.
    /// - Throws: `KafkaError` for an invalid configuration.
    public init(configuration: ConsumerConfiguration, logger: Logger) throws(KafkaError) {
        self.configuration = configuration
        let poller = ConsumerPoller(logger: logger)
        let client = try RdKafkaClient(
            kind: .consumer, properties: configuration.properties,
            events: herald_event_log() | herald_event_error(), context: poller,
            configure: { rd_kafka_conf_set_rebalance_cb($0, rebalanceCallback) })
        self.client = client
        self.poller = poller
        self.pump = KafkaEventPump(
            client: client, logger: logger,
            onLog: { facility, level, text in
                if let reset = OffsetResetReport(facility: facility, level: level, text: text) { poller.report(reset) }
            })
        self.pollExecutor = BlockingExecutor(label: "herald-consumer-poll-\(client.name)")
        self.controlExecutor = BlockingExecutor(label: "herald-consumer-control-\(client.name)")
    }

    deinit {
        pump.stop()
    }

    /// Joins the group and consumes these topics; partitions arrive as `.assigned` events.
    public func subscribe(_ topics: [String]) throws(KafkaError) {
        let list = TopicPartitionList(topics.map { TopicPartition($0, herald_partition_unassigned()) })
        let err = list.withPointer { rd_kafka_subscribe(client.handle, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "subscribe \(topics)") }
    }

    /// Consumes exactly these partitions from these positions, outside any group rebalancing.
    public func assign(_ positions: [TopicPartitionOffset]) throws(KafkaError) {
        let list = TopicPartitionList(positions)
        let err = list.withPointer { rd_kafka_assign(client.handle, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "assign") }
    }

    /// Moves the position of assigned partitions; the next batch starts there.
    public func seek(_ positions: [TopicPartitionOffset], timeout: Duration = .seconds(10)) async throws(KafkaError) {
        let client = self.client
        try await controlExecutor.run { () throws(KafkaError) in
            let list = TopicPartitionList(positions)
            if let error = list.withPointer({ rd_kafka_seek_partitions(client.handle, $0, timeout.timeoutMilliseconds) }) {
                throw KafkaError(consuming: error, operation: "seek")
            }
            if let failed = list.entries.first(where: { $0.1 != .noError }) {
                throw KafkaError(code: failed.1, operation: "seek \(failed.0)")
            }
        }
    }

    /// Stops fetching these partitions (they stay assigned) until `resume`.
    public func pause(_ partitions: [TopicPartition]) throws(KafkaError) {
        let list = TopicPartitionList(partitions)
        let err = list.withPointer { rd_kafka_pause_partitions(client.handle, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "pause") }
    }

    public func resume(_ partitions: [TopicPartition]) throws(KafkaError) {
        let list = TopicPartitionList(partitions)
        let err = list.withPointer { rd_kafka_resume_partitions(client.handle, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "resume") }
    }

    /// The event stream. Iterate it from one task only.
    public var events: ConsumerEventSequence { ConsumerEventSequence(consumer: self) }

    /// One poll: waits up to `pollTimeout` for a first message, then takes what is ready.
    /// Returns no events on timeout or after `close()`.
    public func poll() async -> [ConsumerEvent] {
        guard !isClosed else { return [] }
        return await pollExecutor.run { [self] in
            // Checked again on the poll thread: `close()` runs there too, so no poll follows it.
            guard !isClosed else { return [] }
            return poller.poll(
                client.handle, maxMessages: configuration.maxBatchSize,
                timeout: configuration.pollTimeout.timeoutMilliseconds)
        }
    }

    /// Marks these messages processed: their offsets (+1) will be committed.
    /// - Returns: partitions that are no longer assigned (their messages will be
    ///   processed again by the new owner).
    @discardableResult
    public func store(_ messages: [ConsumedMessage]) throws(KafkaError) -> [TopicPartition] {
        try storeOffsets(messages.nextOffsets)
    }

    /// Stores offsets (the next offset to read per partition) for the next commit.
    /// - Returns: partitions that are no longer assigned.
    @discardableResult
    public func storeOffsets(_ offsets: [TopicPartitionOffset]) throws(KafkaError) -> [TopicPartition] {
        guard !offsets.isEmpty else { return [] }
        let list = TopicPartitionList(offsets)
        let err = list.withPointer { rd_kafka_offsets_store(client.handle, $0) }
        let rejected = list.entries.filter { $0.1 != .noError }.map(\.0.topicPartition)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR && rejected.isEmpty {
            throw KafkaError(err, operation: "store offsets")
        }
        return rejected
    }

    /// Commits the stored offsets now and waits for the broker's answer.
    public func commit() async throws(KafkaError) {
        let client = self.client
        try await controlExecutor.run { () throws(KafkaError) in
            let err = rd_kafka_commit(client.handle, nil, 0)
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR__NO_OFFSET else {
                throw KafkaError(err, operation: "commit")
            }
        }
    }

    /// The group's committed offsets for these partitions (`nil` where none).
    public func committed(_ partitions: [TopicPartition], timeout: Duration = .seconds(10)) async throws(KafkaError) -> [TopicPartition: Int64] {
        let client = self.client
        return try await controlExecutor.run { () throws(KafkaError) -> [TopicPartition: Int64] in
            let list = TopicPartitionList(partitions)
            let err = list.withPointer { rd_kafka_committed(client.handle, $0, timeout.timeoutMilliseconds) }
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "committed offsets") }
            var result: [TopicPartition: Int64] = [:]
            for (entry, _) in list.entries where entry.offset.rawValue >= 0 {
                result[entry.topicPartition] = entry.offset.rawValue
            }
            return result
        }
    }

    /// Low and high watermarks of a partition, asked of the broker.
    public func watermarks(_ partition: TopicPartition, timeout: Duration = .seconds(10)) async throws(KafkaError) -> Watermarks {
        let client = self.client
        return try await controlExecutor.run { () throws(KafkaError) in try client.queryWatermarks(partition, timeout: timeout) }
    }

    /// The high watermark of a partition as last seen in a fetch answer, without asking the
    /// broker (librdkafka's cache; cheap enough to call after every batch).
    /// - Returns: `nil` until a fetch of the partition has answered.
    public func cachedHighWatermark(_ partition: TopicPartition) -> Int64? {
        var low: Int64 = -1
        var high: Int64 = -1
        let err = rd_kafka_get_watermark_offsets(client.handle, partition.topic, partition.partition, &low, &high)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { return nil }
        return high
    }

    /// The partitions currently assigned to this consumer.
    public func assignment() throws(KafkaError) -> [TopicPartition] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        let err = rd_kafka_assignment(client.handle, &list)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "assignment") }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return TopicPartitionList.entries(list).map(\.0.topicPartition).sorted()
    }

    /// This member's group identity, for `KafkaProducer.sendOffsetsToTransaction`.
    public func groupMetadata() throws(KafkaError) -> ConsumerGroupMetadata {
        guard let pointer = rd_kafka_consumer_group_metadata(client.handle) else {
            throw KafkaError(code: .state, reason: "the consumer has no group metadata", operation: "group metadata")
        }
        return ConsumerGroupMetadata(pointer: pointer)
    }

    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Leaves the group (committing stored offsets on the way out) and stops, waiting at
    /// most `timeout`: `rd_kafka_consumer_close` can block for as long as the brokers are
    /// unreachable. After the timeout the close goes on in the background and this returns.
    /// - Returns: `false` when the close did not finish in time (offsets stored since the
    ///   last commit may not be committed: the group redoes that work).
    @discardableResult
    public func close(timeout: Duration = .seconds(10)) async -> Bool {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        let (client, pump) = (self.client, self.pump)
        let finished = await pollExecutor.run(within: timeout) {
            _ = rd_kafka_consumer_close(client.handle)
            pump.stopAndWait()
            return true
        }
        return finished ?? false
    }

    /// The ID of the cluster the brokers belong to (`rd_kafka_clusterid`), asked of the
    /// brokers: what tells one cluster from another, for local state built from it.
    /// - Throws: `KafkaError` (`timedOut`) when no broker answered within `timeout`.
    public func clusterID(timeout: Duration = .seconds(10)) async throws(KafkaError) -> String {
        let client = self.client
        return try await controlExecutor.run { () throws(KafkaError) in try client.clusterID(timeout: timeout) }
    }
}
