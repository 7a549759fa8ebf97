import Foundation
import HeraldKafka
import HeraldStages
import Logging
import ServiceLifecycle

/// An embedded cluster with Herald's catalog, for pipeline tests (127.0.0.1 only).
public struct PipelineFixture: Sendable {
    public let environment: KafkaEnvironment
    public let catalog: TopicCatalog
    public let logger: Logger
    /// The services' recent log lines at notice and above, for failure messages.
    public let recentLog = RecentLog()

    /// - Parameter prefix: the topic prefix (default: a new one), to give two clusters the same topic names.
    public init(partitions: Int32 = 2, prefix: String? = nil) async throws {
        let logger = TestLogging.logger(label: "pipeline-test", keepingIn: recentLog)
        self.logger = logger
        environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        catalog = TopicCatalog(prefix: prefix ?? "t\(UUID().uuidString.prefix(6)).", partitions: partitions)
        _ = try await environment.ensureTopics(catalog)
    }

    /// A producer of the cluster with a 1 ms linger.
    public func producer() throws -> KafkaProducer {
        var settings = environment.producerConfiguration(clientID: "test")
        settings.linger = .milliseconds(1)
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    /// A consumer of the cluster in `group`, with a 3 s session timeout.
    /// - Parameter reportsPartitionEnds: see `ConsumerConfiguration.reportsPartitionEnds`.
    public func consumer(group: String, reportsPartitionEnds: Bool = false) throws -> KafkaConsumer {
        var settings = environment.consumerConfiguration(groupID: group, clientID: "test")
        settings.sessionTimeout = .seconds(3)
        settings.reportsPartitionEnds = reportsPartitionEnds
        return try KafkaConsumer(configuration: settings, logger: logger)
    }

    /// Reads the catalog's topics and committed offsets.
    public var reader: TopicReader {
        TopicReader(client: environment.client, logger: logger) { group in try self.consumer(group: group) }
    }

    /// Runs `services` in a service group until `body` returns, then shuts them down
    /// gracefully (also when `body` throws).
    /// - Returns: what `body` returned.
    @discardableResult
    public func run<T: Sendable>(_ services: [any Service], until body: () async throws -> T) async throws -> T {
        let group = ServiceGroup(services: services, logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask { try await group.run(); return nil }
            let result: T
            do {
                result = try await body()
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        }
    }

    /// Reads `count` messages of a topic from the beginning (all partitions).
    public func read(_ topic: String, count: Int, timeout: Duration = .seconds(20)) async throws -> [ConsumedMessage] {
        try await reader.read(topic, partitions: catalog.partitions, count: count, timeout: timeout)
    }

    /// Every message of a topic up to its end offsets now (all partitions): what was
    /// acknowledged is all there, so a test checks what is absent without waiting for it.
    public func readToEnd(_ topic: String) async throws -> [ConsumedMessage] {
        try await reader.readToEnd(topic, partitions: catalog.partitions)
    }

    /// The offsets `group` committed on the catalog topics `topics` (all partitions).
    public func committedOffsets(group: String, topics: [String]) async throws -> [TopicPartition: Int64] {
        try await reader.committedOffsets(group: group, topics: topics, partitions: catalog.partitions)
    }

    /// Waits until `group` has committed the end offsets `topics` have now: the stage
    /// consumed, delivered and committed everything written so far.
    /// - Returns: whether it did within `timeout`.
    @discardableResult
    public func waitUntilCommitted(group: String, _ topics: [String], timeout: Duration = .seconds(30)) async throws -> Bool {
        try await reader.waitUntilCommitted(group: group, topics, partitions: catalog.partitions, timeout: timeout)
    }
}
