import Foundation
import HeraldKafka
import HeraldPipeline
import Logging
import ServiceLifecycle
import Testing

/// An embedded cluster with Herald's catalog, for pipeline tests (127.0.0.1 only).
struct PipelineFixture {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let logger: Logger
    /// The services' recent log lines at notice and above, for failure messages.
    let recentLog = RecentLog()

    /// - Parameter prefix: the topic prefix (default: a new one), to give two clusters the same topic names.
    init(partitions: Int32 = 2, prefix: String? = nil) async throws {
        let recentLog = recentLog
        let logger = Logger(label: "pipeline-test") { label in
            var standardError = StreamLogHandler.standardError(label: label)
            standardError.logLevel = ProcessInfo.processInfo.environment["HERALD_TEST_LOG"] == nil ? .critical : .debug
            return MultiplexLogHandler([standardError, recentLog.handler(label: label)])
        }
        self.logger = logger
        environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        catalog = TopicCatalog(prefix: prefix ?? "t\(UUID().uuidString.prefix(6)).", partitions: partitions)
        _ = try await environment.ensureTopics(catalog)
    }

    func producer() throws -> KafkaProducer {
        var settings = environment.producerConfiguration(clientID: "test")
        settings.linger = .milliseconds(1)
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    func consumer(group: String) throws -> KafkaConsumer {
        var settings = environment.consumerConfiguration(groupID: group, clientID: "test")
        settings.sessionTimeout = .seconds(3)
        return try KafkaConsumer(configuration: settings, logger: logger)
    }

    /// Runs `services` in a service group until `done` returns, then shuts them down gracefully.
    func run(_ services: [any Service], until done: @Sendable () async throws -> Void) async throws {
        let group = ServiceGroup(services: services, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await done()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// Reads `count` messages of a topic from the beginning (all partitions).
    func read(_ topic: String, count: Int, timeout: Duration = .seconds(20)) async throws -> [ConsumedMessage] {
        let consumer = try consumer(group: "reader-\(UUID().uuidString)")
        try consumer.assign((0..<catalog.partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        var messages: [ConsumedMessage] = []
        let deadline = ContinuousClock.now + timeout
        while messages.count < count, ContinuousClock.now < deadline {
            for case .messages(let batch) in await consumer.poll() { messages += batch }
        }
        await consumer.close()
        return messages
    }

    /// Every message of a topic up to its end offsets now (all partitions): what was
    /// acknowledged is all there, so a test checks what is absent without waiting for it.
    func readToEnd(_ topic: String) async throws -> [ConsumedMessage] {
        let admin = try KafkaAdmin(configuration: environment.client, logger: logger)
        var stored: Int64 = 0
        for partition in 0..<catalog.partitions {
            let marks = try await admin.watermarks(TopicPartition(topic, partition))
            stored += marks.high - marks.low
        }
        await admin.close()
        return stored == 0 ? [] : try await read(topic, count: Int(stored))
    }
}

extension ConsumedMessage {
    var text: String { value.map { String(decoding: $0, as: UTF8.self) } ?? "<null>" }
}
