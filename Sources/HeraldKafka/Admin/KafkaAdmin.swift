import CRdKafka
import Logging

/// Cluster administration: topics, watermarks, group offsets.
public final class KafkaAdmin: Sendable {
    public let configuration: KafkaClientConfiguration
    private let client: RdKafkaClient
    private let pump: KafkaEventPump
    private let executor: BlockingExecutor
    private let logger: Logger

    public init(configuration: KafkaClientConfiguration, logger: Logger) throws(KafkaError) {
        self.configuration = configuration
        self.logger = logger
        let client = try RdKafkaClient(
            kind: .producer, properties: configuration.properties,
            events: herald_event_log() | herald_event_error())
        self.client = client
        self.pump = KafkaEventPump(client: client, logger: logger)
        self.executor = BlockingExecutor(label: "herald-admin-\(client.name)")
    }

    deinit { pump.stop() }

    /// Every topic of the cluster with its partitions.
    /// - Throws: `KafkaError` when the brokers cannot be reached within the request timeout.
    public func topics() async throws(KafkaError) -> [TopicMetadata] {
        let (client, timeout) = (self.client, configuration.requestTimeout)
        return try await executor.run { () throws(KafkaError) in
            try client.metadata(timeout: timeout).sorted { $0.name < $1.name }
        }
    }

    /// Creates the topics that do not exist; leaves existing ones as they are (idempotent).
    /// - Returns: each topic's actual partition count and whether it was created.
    /// - Throws: `KafkaError` when a topic cannot be created (e.g. the broker forbids it).
    public func ensureTopics(_ specifications: [TopicSpecification]) async throws(KafkaError) -> [EnsuredTopic] {
        let existing = Dictionary(
            try await topics().filter { $0.error == nil }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let missing = specifications.filter { existing[$0.name] == nil }
        if !missing.isEmpty {
            let (client, timeout) = (self.client, configuration.requestTimeout)
            try await executor.run { () throws(KafkaError) in try Self.createTopics(missing, client: client, timeout: timeout) }
            for topic in missing { logger.info("created topic", metadata: ["topic": .string(topic.name)]) }
        }
        var result: [EnsuredTopic] = []
        for specification in specifications {
            if let topic = existing[specification.name] {
                result.append(EnsuredTopic(name: topic.name, partitions: Int32(topic.partitions.count), created: false))
            } else {
                result.append(EnsuredTopic(name: specification.name, partitions: specification.partitions, created: true))
            }
        }
        return result
    }

    /// Low and high watermarks of a partition.
    public func watermarks(_ partition: TopicPartition) async throws(KafkaError) -> Watermarks {
        let (client, timeout) = (self.client, configuration.requestTimeout)
        return try await executor.run { () throws(KafkaError) in try client.queryWatermarks(partition, timeout: timeout) }
    }

    /// The ID of the cluster the brokers belong to.
    /// - Throws: `KafkaError` (`timedOut`) when no broker answered in time.
    public func clusterID() async throws(KafkaError) -> String {
        let (client, timeout) = (self.client, configuration.requestTimeout)
        return try await executor.run { () throws(KafkaError) in try client.clusterID(timeout: timeout) }
    }

    /// A consumer group's committed offsets for these partitions (absent where none).
    public func committedOffsets(group: String, partitions: [TopicPartition]) async throws(KafkaError) -> [TopicPartition: Int64] {
        var settings = ConsumerConfiguration()
        settings.client = configuration
        settings.groupID = group
        let consumer = try KafkaConsumer(configuration: settings, logger: logger)
        let result: Result<[TopicPartition: Int64], KafkaError>
        do {
            result = .success(try await consumer.committed(partitions, timeout: configuration.requestTimeout))
        } catch {
            result = .failure(error)
        }
        await consumer.close()
        return try result.get()
    }

    public func close() async {
        let pump = self.pump
        await executor.run { pump.stopAndWait() }
    }

    private static func createTopics(
        _ specifications: [TopicSpecification], client: RdKafkaClient, timeout: Duration
    ) throws(KafkaError) {
        var errorText = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { newTopics.forEach { rd_kafka_NewTopic_destroy($0) } }
        for specification in specifications {
            guard let topic = rd_kafka_NewTopic_new(
                specification.name, specification.partitions, specification.replicationFactor,
                &errorText, errorText.count)
            else {
                throw KafkaError(code: .invalidArgument, reason: String(cBuffer: errorText), operation: "create topic \(specification.name)")
            }
            newTopics.append(topic)
            for (key, value) in specification.configs.sorted(by: { $0.key < $1.key }) {
                rd_kafka_NewTopic_set_config(topic, key, value)
            }
        }
        let queue = rd_kafka_queue_new(client.handle)
        defer { rd_kafka_queue_destroy(queue) }
        let options = rd_kafka_AdminOptions_new(client.handle, RD_KAFKA_ADMIN_OP_CREATETOPICS)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_operation_timeout(options, timeout.timeoutMilliseconds, &errorText, errorText.count)
        _ = rd_kafka_AdminOptions_set_request_timeout(options, timeout.timeoutMilliseconds, &errorText, errorText.count)
        newTopics.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_CreateTopics(client.handle, buffer.baseAddress, buffer.count, options, queue)
        }
        guard let event = rd_kafka_queue_poll(queue, (timeout + .seconds(5)).timeoutMilliseconds) else {
            throw KafkaError(code: .timedOut, reason: "no answer to CreateTopics within \(timeout)", operation: "create topics")
        }
        defer { rd_kafka_event_destroy(event) }
        let err = rd_kafka_event_error(event)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            var reason = String(cString: rd_kafka_event_error_string(event))
            if err == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE || err == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION {
                reason += " — this broker cannot create topics (the embedded broker creates Herald's topics when it starts)"
            }
            throw KafkaError(err, operation: "create topics", reason: reason)
        }
        var count = 0
        let results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event), &count)
        for index in 0..<count {
            guard let result = results?[index] else { continue }
            let code = rd_kafka_topic_result_error(result)
            if code == RD_KAFKA_RESP_ERR_NO_ERROR || code == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS { continue }
            let name = String(cString: rd_kafka_topic_result_name(result))
            let reason = rd_kafka_topic_result_error_string(result).map { String(cString: $0) }
            throw KafkaError(code, operation: "create topic \(name)", reason: reason)
        }
    }
}
