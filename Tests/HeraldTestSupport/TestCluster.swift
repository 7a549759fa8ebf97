import Foundation
import HeraldKafka
import Logging
import Testing

/// An embedded cluster on 127.0.0.1 for one test, with helpers for unique names and clients.
public final class TestCluster: Sendable {
    public let cluster: EmbeddedKafkaCluster
    public let logger: Logger

    public init(brokers: Int = 1) throws {
        logger = TestLogging.logger(label: "test")
        cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: logger)
        #expect(cluster.bootstrapServers.hasPrefix("127.0.0.1:"))
    }

    /// Reads this cluster's topics and committed offsets.
    public var reader: TopicReader {
        TopicReader(client: KafkaClientConfiguration(bootstrapServers: cluster.bootstrapServers), logger: logger) { group in
            try self.consumer(group: group)
        }
    }

    /// A new topic with a unique name starting with `base`.
    public func topic(_ base: String = "t", partitions: Int32 = 1) throws -> String {
        let name = "\(base)-\(UUID().uuidString.prefix(8))"
        try cluster.createTopic(name, partitions: partitions)
        return name
    }

    /// A producer with a 1 ms linger; `configure` adjusts the settings.
    public func producer(_ configure: (inout ProducerConfiguration) -> Void = { _ in }) throws -> KafkaProducer {
        var settings = ProducerConfiguration(bootstrapServers: cluster.bootstrapServers)
        settings.linger = .milliseconds(1)
        configure(&settings)
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    /// A consumer in `group` (3 s session timeout, fast metadata refresh); `configure` adjusts the settings.
    public func consumer(group: String, _ configure: (inout ConsumerConfiguration) -> Void = { _ in }) throws -> KafkaConsumer {
        var settings = ConsumerConfiguration(bootstrapServers: cluster.bootstrapServers, groupID: group)
        settings.sessionTimeout = .seconds(3)
        settings.client.extraProperties["topic.metadata.refresh.interval.ms"] = "500"
        if let debug = ProcessInfo.processInfo.environment["HERALD_TEST_KAFKA_DEBUG"] { settings.client.extraProperties["debug"] = debug }
        configure(&settings)
        return try KafkaConsumer(configuration: settings, logger: logger)
    }
}
