import Foundation
import HeraldKafka
import Logging
import Testing

/// An embedded cluster on 127.0.0.1 for one test, with helpers for unique names and clients.
final class TestCluster: Sendable {
    let cluster: EmbeddedKafkaCluster
    let logger: Logger

    init(brokers: Int = 1) throws {
        var logger = Logger(label: "test")
        logger.logLevel = ProcessInfo.processInfo.environment["HERALD_TEST_LOG"] == nil ? .critical : .debug
        self.logger = logger
        cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: logger)
        #expect(cluster.bootstrapServers.hasPrefix("127.0.0.1:"))
    }

    func topic(_ base: String = "t", partitions: Int32 = 1) throws -> String {
        let name = "\(base)-\(UUID().uuidString.prefix(8))"
        try cluster.createTopic(name, partitions: partitions)
        return name
    }

    func producer(_ configure: (inout ProducerConfiguration) -> Void = { _ in }) throws -> KafkaProducer {
        var settings = ProducerConfiguration(bootstrapServers: cluster.bootstrapServers)
        settings.linger = .milliseconds(1)
        configure(&settings)
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    func consumer(group: String, _ configure: (inout ConsumerConfiguration) -> Void = { _ in }) throws -> KafkaConsumer {
        var settings = ConsumerConfiguration(bootstrapServers: cluster.bootstrapServers, groupID: group)
        settings.sessionTimeout = .seconds(3)
        settings.client.extraProperties["topic.metadata.refresh.interval.ms"] = "500"
        if let debug = ProcessInfo.processInfo.environment["HERALD_TEST_KAFKA_DEBUG"] { settings.client.extraProperties["debug"] = debug }
        configure(&settings)
        return try KafkaConsumer(configuration: settings, logger: logger)
    }
}

/// Messages `from`..<`to` with key `k<i % keys>` and value `v<i>`.
func numberedMessages(topic: String, _ range: Range<Int>, keys: Int = 4) -> [OutgoingMessage] {
    range.map { OutgoingMessage(topic: topic, key: "k\($0 % keys)", value: Data("v\($0)".utf8)) }
}

extension ConsumedMessage {
    var valueString: String { value.map { String(decoding: $0, as: UTF8.self) } ?? "<null>" }
}

/// Collects messages from a consumer until `count` arrive or `timeout` passes, storing offsets
/// after each batch. Returns the messages and the other events seen, in order.
func collect(
    _ consumer: KafkaConsumer, count: Int, timeout: Duration = .seconds(60), store: Bool = true
) async throws -> (messages: [ConsumedMessage], events: [ConsumerEvent]) {
    var messages: [ConsumedMessage] = []
    var others: [ConsumerEvent] = []
    let deadline = ContinuousClock.now + timeout
    while messages.count < count, ContinuousClock.now < deadline {
        for event in await consumer.poll() {
            if case .messages(let batch) = event {
                messages += batch
                if store { try consumer.store(batch) }
            } else {
                others.append(event)
            }
        }
    }
    return (messages, others)
}
