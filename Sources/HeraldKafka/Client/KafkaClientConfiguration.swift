/// Settings every Kafka client shares. `properties` renders them, with `extraProperties`
/// as the escape hatch for anything librdkafka accepts (security, tuning…).
public struct KafkaClientConfiguration: Sendable {
    /// `host:port` pairs, comma-separated. Default: `127.0.0.1:9092`.
    public var bootstrapServers: String = "127.0.0.1:9092"
    /// Shown in broker logs and metrics. Default: `herald`.
    public var clientID: String = "herald"
    /// How long to wait for broker metadata and admin answers. Default: 10 s.
    public var requestTimeout: Duration = .seconds(10)
    /// Extra librdkafka properties, applied last (they win over everything above).
    public var extraProperties: [String: String] = [:]

    public init() {}

    public init(bootstrapServers: String) {
        self.bootstrapServers = bootstrapServers
    }

    var properties: [String: String] {
        [
            "bootstrap.servers": bootstrapServers,
            "client.id": clientID,
            // Logs reach swift-log through the event queue, not a C callback.
            "log.queue": "true",
            "socket.timeout.ms": String(requestTimeout.milliseconds),
        ]
    }
}

/// The producer's settings. Defaults favour no loss and no duplicates.
public struct ProducerConfiguration: Sendable {
    public var client = KafkaClientConfiguration()
    /// Idempotent producer: retries never duplicate or reorder. Default: on.
    public var idempotence = true
    /// Set to use transactions; must be unique per producer instance and stable across restarts.
    public var transactionalID: String?
    /// How long a transaction may stay open before the broker aborts it. Default: 60 s.
    public var transactionTimeout: Duration = .seconds(60)
    /// How long to wait to fill a batch. Default: 1 ms. Each hop of the pipeline waits up to
    /// this long before its outputs leave (four produces from a change to the reader); the
    /// stages no longer await a batch's delivery before the next (`StageRunner` pipelining),
    /// so a longer linger buys little throughput. librdkafka's default is 5 ms.
    public var linger: Duration = .milliseconds(1)
    /// Messages may wait this long for delivery (including retries) before failing. Default: 5 min.
    public var deliveryTimeout: Duration = .seconds(300)
    /// The local queue's capacity in messages; `send` waits while it is full. Default: 100 000.
    public var queueCapacity = 100_000
    /// `none`, `gzip`, `snappy`, `lz4` or `zstd`. Default: `none`.
    public var compression = "none"
    /// How keys map to partitions. Default: `murmur2_random`, the Java client's partitioner,
    /// so Herald and upstream Java producers put a key on the same partition (librdkafka's
    /// own default, `consistent_random`, hashes with CRC32 and would not).
    public var partitioner = "murmur2_random"
    /// The largest message (key, value, headers and framing) the producer accepts; larger
    /// ones fail at once with `MSG_SIZE_TOO_LARGE`. Keep it at or below the broker's and the
    /// topics' `max.message.bytes`. Default: 1 000 000 (librdkafka's and Kafka's default).
    public var maxMessageBytes = 1_000_000

    public init() {}

    public init(bootstrapServers: String) {
        client = KafkaClientConfiguration(bootstrapServers: bootstrapServers)
    }

    /// The librdkafka properties, rendered in one place.
    public var properties: [String: String] {
        var result = client.properties
        result["enable.idempotence"] = String(idempotence || transactionalID != nil)
        result["linger.ms"] = String(linger.milliseconds)
        result["message.timeout.ms"] = String(deliveryTimeout.milliseconds)
        result["queue.buffering.max.messages"] = String(queueCapacity)
        result["compression.codec"] = compression
        result["partitioner"] = partitioner
        result["message.max.bytes"] = String(maxMessageBytes)
        if let transactionalID {
            result["transactional.id"] = transactionalID
            result["transaction.timeout.ms"] = String(transactionTimeout.milliseconds)
            // librdkafka requires a message to time out before its transaction does.
            result["message.timeout.ms"] = String(min(deliveryTimeout, transactionTimeout).milliseconds)
        }
        result.merge(client.extraProperties) { _, extra in extra }
        return result
    }

    /// The message size limit in effect (`maxMessageBytes`, or `message.max.bytes` given in
    /// `extraProperties`).
    public var effectiveMaxMessageBytes: Int {
        client.extraProperties["message.max.bytes"].flatMap { Int($0) } ?? maxMessageBytes
    }
}

/// The consumer's settings. Offsets are stored only when the caller says a batch is
/// processed and committed in the background (and synchronously before partitions move).
public struct ConsumerConfiguration: Sendable {
    /// Where to start when the group has no committed offset, or the committed one is gone.
    public enum OffsetReset: String, Sendable {
        case earliest, latest
        /// Stop the partition and report `offsetOutOfRange` instead of jumping. librdkafka
        /// 2.0.2 refuses a `seek` on such a partition; assign it again to resume.
        case error
    }

    /// How partitions are spread over the group's members.
    public enum AssignmentStrategy: String, Sendable {
        /// Incremental: only moved partitions are revoked. Not safe with librdkafka 2.0.2: a
        /// member destroyed after joining but before its first assignment aborts the process
        /// (`rd_kafka_sticky_assignor_state_destroy: Assertion 'assignor_state' failed`).
        case cooperativeSticky = "cooperative-sticky"
        /// Eager; gives one member the same partition numbers of every subscribed topic,
        /// which suits co-partitioned topics. The default.
        case range
        case roundRobin = "roundrobin"
    }

    public var client = KafkaClientConfiguration()
    /// The consumer group; required for `subscribe` and commits.
    public var groupID: String = "herald"
    public var offsetReset: OffsetReset = .earliest
    /// Skip messages of aborted transactions. Default: on. (The embedded broker ignores it;
    /// Herald's correctness never depends on it.)
    public var readCommitted = true
    public var assignmentStrategy: AssignmentStrategy = .range
    /// A member not heard from for this long is removed from the group and its partitions
    /// move: the failover time after a crash. Default: 6 s, the smallest a Kafka broker
    /// accepts by default (`group.min.session.timeout.ms`).
    public var sessionTimeout: Duration = .seconds(6)
    /// How often the member tells the coordinator it is alive, and learns of a rebalance.
    /// Default: 1 s (librdkafka wants it well below `sessionTimeout`).
    public var heartbeatInterval: Duration = .seconds(1)
    /// Static group membership (`group.instance.id`): a member that restarts with the same
    /// ID within `sessionTimeout` takes its partitions back without a rebalance. Must be
    /// unique per member of the group and stable across restarts (a pod name). A static
    /// member does not leave the group when it closes, so its partitions wait for the
    /// session timeout. Default: none (dynamic membership).
    public var groupInstanceID: String?
    /// Stored offsets are committed this often. Default: 1 s.
    public var autoCommitInterval: Duration = .seconds(1)
    /// The most messages one batch holds. Default: 1000.
    public var maxBatchSize = 1000
    /// How long one poll waits for a first message before returning an empty batch. Default: 100 ms.
    public var pollTimeout: Duration = .milliseconds(100)
    /// How long the broker may hold a fetch that finds no new message
    /// (`fetch.wait.max.ms`). A Kafka broker answers as soon as a message arrives, so this
    /// only bounds idle round trips; librdkafka's mock cluster (the embedded broker,
    /// `herald broker`) does not, and holds every empty fetch this long, so a message
    /// produced meanwhile waits for it. Default: 500 ms (librdkafka's and Kafka's default).
    public var fetchMaxWait: Duration = .milliseconds(500)
    /// How many messages librdkafka prefetches before it stops fetching
    /// (`queued.min.messages`; `queued.max.messages.kbytes`, 64 MB, still bounds the bytes).
    /// The count is taken over the consumer's one shared queue, not per partition, and once
    /// it is reached librdkafka 2.0.2 looks again only on its broker thread's next wake-up,
    /// up to 1 s later: a consumer that drains the queue within that second idles for the
    /// rest of it. Default: 500 000, not librdkafka's 100 000, with which a fast reader
    /// (state restore, table loading, `bench kafka`) of a 64-partition backlog was idle for
    /// half of its run in 0.4–0.8 s stretches.
    public var prefetchMessages = 500_000
    /// Report each time the consumer reaches the end of a partition's log as
    /// `ConsumerEvent.partitionEnd` (librdkafka's `enable.partition.eof`): the one sure sign
    /// that a read got to the end where the last offsets are records no consumer receives
    /// (transaction markers, records compaction removed). Default: off.
    public var reportsPartitionEnds = false

    public init() {}

    public init(bootstrapServers: String, groupID: String) {
        client = KafkaClientConfiguration(bootstrapServers: bootstrapServers)
        self.groupID = groupID
    }

    /// The librdkafka properties, rendered in one place.
    public var properties: [String: String] {
        var result = client.properties
        result["group.id"] = groupID
        result["enable.auto.offset.store"] = "false"
        result["enable.auto.commit"] = "true"
        result["auto.commit.interval.ms"] = String(autoCommitInterval.milliseconds)
        result["auto.offset.reset"] = offsetReset.rawValue
        result["isolation.level"] = readCommitted ? "read_committed" : "read_uncommitted"
        result["partition.assignment.strategy"] = assignmentStrategy.rawValue
        result["session.timeout.ms"] = String(sessionTimeout.milliseconds)
        result["heartbeat.interval.ms"] = String(max(100, min(heartbeatInterval.milliseconds, sessionTimeout.milliseconds / 3)))
        if let groupInstanceID { result["group.instance.id"] = groupInstanceID }
        result["enable.partition.eof"] = String(reportsPartitionEnds)
        result["fetch.wait.max.ms"] = String(fetchMaxWait.milliseconds)
        result["queued.min.messages"] = String(prefetchMessages)
        result.merge(client.extraProperties) { _, extra in extra }
        return result
    }
}

extension Duration {
    /// Whole milliseconds, for librdkafka's `*.ms` settings and timeouts.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Milliseconds clamped to the `int` timeouts of librdkafka's C API.
    var timeoutMilliseconds: Int32 { Int32(clamping: milliseconds) }
}
