import CRdKafka
import Logging

/// librdkafka's built-in mock Kafka cluster, listening on 127.0.0.1, with its fault injection.
///
/// Memory only; each partition keeps only about the newest 5 MB; aborted transactional
/// messages stay visible to `read_committed` consumers; it cannot create topics through the
/// admin API (use `createTopics` here) and does not compact. Herald's correctness does not
/// rest on any of those.
///
/// `@unchecked Sendable` is safe: the cluster pointer never changes, the mock functions
/// are thread-safe (they post to the cluster's own thread), and it is freed in `deinit`.
public final class EmbeddedKafkaCluster: @unchecked Sendable {
    /// Broker IDs run from 1 to `brokerCount`.
    public let brokerCount: Int
    /// The bootstrap list to give clients, e.g. `127.0.0.1:39211,127.0.0.1:40673`.
    public let bootstrapServers: String
    private let client: RdKafkaClient
    private let pump: KafkaEventPump
    private let cluster: OpaquePointer

    /// Starts a cluster of `brokers` brokers on 127.0.0.1 (random free ports).
    public init(brokers: Int = 1, logger: Logger) throws(KafkaError) {
        precondition(brokers >= 1, "a cluster has at least one broker")
        client = try RdKafkaClient(
            kind: .producer, properties: ["log.queue": "true", "client.id": "herald-embedded-broker"],
            events: herald_event_log() | herald_event_error())
        pump = KafkaEventPump(client: client, logger: logger)
        guard let cluster = rd_kafka_mock_cluster_new(client.handle, Int32(brokers)) else {
            throw KafkaError(code: .state, reason: "could not start the embedded Kafka cluster", operation: "embedded broker")
        }
        self.cluster = cluster
        self.brokerCount = brokers
        self.bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(cluster))
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
        pump.stop()
    }

    /// Creates a topic (idempotent when it exists with the same partition count).
    public func createTopic(_ name: String, partitions: Int32, replicationFactor: Int32 = 1) throws(KafkaError) {
        let err = rd_kafka_mock_topic_create(cluster, name, partitions, min(replicationFactor, Int32(brokerCount)))
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS else {
            throw KafkaError(err, operation: "create topic \(name)")
        }
    }

    /// Creates each topic (configs are accepted and ignored: the mock does not compact).
    public func createTopics(_ specifications: [TopicSpecification]) throws(KafkaError) {
        for specification in specifications {
            try createTopic(specification.name, partitions: specification.partitions, replicationFactor: specification.replicationFactor)
        }
    }

    /// Takes a broker down: its connections close and it refuses new ones until `setBrokerUp`.
    public func setBrokerDown(_ broker: Int32) throws(KafkaError) {
        let err = rd_kafka_mock_broker_set_down(cluster, broker)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "broker \(broker) down") }
    }

    public func setBrokerUp(_ broker: Int32) throws(KafkaError) {
        let err = rd_kafka_mock_broker_set_up(cluster, broker)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "broker \(broker) up") }
    }

    /// Delays every answer of a broker.
    public func setRoundTripTime(broker: Int32, _ delay: Duration) throws(KafkaError) {
        let err = rd_kafka_mock_broker_set_rtt(cluster, broker, delay.timeoutMilliseconds)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "broker \(broker) rtt") }
    }

    /// Makes the next requests of this kind (to any broker) fail with these errors, in order.
    public func pushRequestErrors(_ api: KafkaAPI, _ errors: [KafkaError.Code]) {
        var codes = errors.map { rd_kafka_resp_err_t(rawValue: $0.rawValue) }
        rd_kafka_mock_push_request_errors_array(cluster, api.rawValue, codes.count, &codes)
    }

    public func clearRequestErrors(_ api: KafkaAPI) {
        rd_kafka_mock_clear_request_errors(cluster, api.rawValue)
    }

    /// Makes every request for this topic fail with `code` (`.noError` clears it).
    public func setTopicError(_ topic: String, _ code: KafkaError.Code) {
        rd_kafka_mock_topic_set_error(cluster, topic, rd_kafka_resp_err_t(rawValue: code.rawValue))
    }
}

/// Kafka protocol API keys, for request fault injection.
public struct KafkaAPI: Hashable, Sendable {
    public let rawValue: Int16

    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let produce = KafkaAPI(rawValue: 0)
    public static let fetch = KafkaAPI(rawValue: 1)
    public static let listOffsets = KafkaAPI(rawValue: 2)
    public static let metadata = KafkaAPI(rawValue: 3)
    public static let offsetCommit = KafkaAPI(rawValue: 8)
    public static let offsetFetch = KafkaAPI(rawValue: 9)
    public static let findCoordinator = KafkaAPI(rawValue: 10)
    public static let joinGroup = KafkaAPI(rawValue: 11)
    public static let heartbeat = KafkaAPI(rawValue: 12)
    public static let syncGroup = KafkaAPI(rawValue: 14)
    public static let initProducerID = KafkaAPI(rawValue: 22)
    public static let addPartitionsToTransaction = KafkaAPI(rawValue: 24)
    public static let endTransaction = KafkaAPI(rawValue: 26)
    public static let transactionOffsetCommit = KafkaAPI(rawValue: 28)
}
