import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import Logging

/// Record changes per second from `record-changes` to rows in the reader store (match →
/// compose → reader in one process on the embedded broker), next to a raw consume→produce
/// pass-through of the same number of messages on the same broker in the same run.
public struct PipelineBenchmark: Sendable {
    /// Both paths' rates, and the pipeline's latency from produce to stored row.
    public struct Result: Sendable {
        public var passThrough: Double
        public var pipeline: Double
        public var p50: Duration
        public var p99: Duration
    }

    let changes: Int
    let subscriptions: Int
    let partitions: Int32
    let logger: Logger

    /// - Parameters:
    ///   - changes: record changes to push through; `subscriptions`: registered first (each
    ///     change fires one); `partitions`: of every topic.
    public init(changes: Int, subscriptions: Int, partitions: Int32, logger: Logger) {
        self.changes = changes
        self.subscriptions = subscriptions
        self.partitions = partitions
        self.logger = logger
    }

    /// Measures the pass-through, then the pipeline, on one embedded broker.
    /// - Throws: `BenchmarkError` when notifications do not arrive.
    public func run() async throws -> Result {
        let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        let baseline = try await passThrough(environment)
        let (rate, latencies) = try await pipeline(environment)
        let sorted = latencies.sorted()
        return Result(
            passThrough: baseline, pipeline: rate,
            p50: sorted.isEmpty ? .zero : sorted[sorted.count / 2],
            p99: sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }

    private func change(_ index: Int) -> Data {
        let k = (index &* 7919) % subscriptions
        return Data("""
            {"changeID":"c\(index)","container":"iCloud.bench","database":"public","zoneID":{"zoneName":"_defaultZone","ownerRecordName":"_system"},\
            "recordType":"Item","recordName":"item-\(index)","kind":"create","fields":{"category":{"value":"c\(k)","type":"STRING"},\
            "title":{"value":"Item \(index)","type":"STRING"}},"timestamp":1795300000000}
            """.utf8)
    }

    /// Consume N messages and produce each to another topic, acknowledged: Kafka's own ceiling here.
    private func passThrough(_ environment: KafkaEnvironment) async throws -> Double {
        let catalog = TopicCatalog(prefix: "pass.", partitions: partitions)
        _ = try await environment.ensureTopics(catalog)
        let producer = try KafkaProducer(configuration: environment.producerConfiguration(clientID: "bench-pass"), logger: logger)
        let input = catalog.name(TopicCatalog.recordChanges), output = catalog.name(TopicCatalog.matches)
        for start in stride(from: 0, to: changes, by: 5_000) {
            _ = try await producer.send((start..<min(changes, start + 5_000)).map {
                OutgoingMessage(topic: input, key: "k\($0)", value: change($0))
            })
        }
        let consumer = try KafkaConsumer(configuration: environment.consumerConfiguration(groupID: "bench-pass", clientID: "bench-pass"), logger: logger)
        try consumer.assign((0..<partitions).map { TopicPartitionOffset(input, $0, .beginning) })
        var copied = 0
        var started: ContinuousClock.Instant?
        while copied < changes {
            for case .messages(let batch) in await consumer.poll() {
                if started == nil { started = .now }
                _ = try await producer.send(batch.map { OutgoingMessage(topic: output, key: $0.key, value: $0.value) })
                _ = try consumer.store(batch)
                copied += batch.count
            }
        }
        let elapsed = (started ?? .now).duration(to: .now)
        await consumer.close()
        await producer.close()
        return Double(changes) / elapsed.seconds
    }

    /// The stages in this process; rows counted in the store while changes are produced.
    private func pipeline(_ environment: KafkaEnvironment) async throws -> (Double, [Duration]) {
        let catalog = TopicCatalog(prefix: "bench.", partitions: partitions)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The match, compose and reader stages as `herald run --stages match,compose,reader` wires them.
        var configuration = HeraldConfiguration(
            instanceID: "bench", dataDirectory: directory.path, tokenKey: .development, jwtSecret: .developmentJWT)
        configuration.stages = [.match, .compose, .reader]
        configuration.httpHost = "127.0.0.1"
        configuration.httpPort = 0
        let runtime = try await HeraldApp.buildRuntime(
            configuration, environment: environment, catalog: catalog, logSink: LogTopicSink(), logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            let codec = WireCodec()
            let subscriptionMessages = try (0..<subscriptions).map { k in
                let subscription = Subscription(
                    subscriptionID: "s\(k)", subscriptionType: .query, container: "iCloud.bench", database: .public,
                    ownerRecordName: "_u\(k % 1_000)", query: SubscriptionQuery(recordType: "Item", predicate: "category == 'c\(k)'"),
                    firesOn: [.create], notificationInfo: NotificationInfo(
                        alertBody: "New item", shouldBadge: true, desiredKeys: ["title"]))
                return OutgoingMessage(topic: catalog.name(TopicCatalog.subscriptions), key: subscription.partitionKey,
                                       value: try codec.encode(subscription))
            }
            _ = try await runtime.producer.send(subscriptionMessages)
            guard let store = runtime.store, let table = runtime.table else {
                throw BenchmarkError("the pipeline stages did not start")
            }
            while table.count < subscriptions { try await Task.sleep(for: .milliseconds(50)) }
            let started = ContinuousClock.now
            var sent: [ContinuousClock.Instant] = []
            let producing = Task {
                var times: [ContinuousClock.Instant] = []
                for start in stride(from: 0, to: changes, by: 1_000) {
                    let now = ContinuousClock.now
                    let range = start..<min(changes, start + 1_000)
                    _ = try await runtime.producer.send(range.map {
                        OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: "zone-\($0 % 64)", value: change($0))
                    })
                    times += Array(repeating: now, count: range.count)
                }
                return times
            }
            var arrivals: [ContinuousClock.Instant] = []
            var stored = 0
            var finished = started
            let deadline = started + .seconds(600)
            while stored < changes, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                let count = try await store.stats().notifications
                if count > stored {
                    let now = ContinuousClock.now
                    arrivals += Array(repeating: now, count: count - stored)
                    stored = count
                    finished = now
                }
            }
            sent = try await producing.value
            let pairs = zip(sent, arrivals).map { $0.duration(to: $1) }
            await runtime.triggerGracefulShutdown()
            try await tasks.waitForAll()
            guard stored >= changes else { throw BenchmarkError("only \(stored) of \(changes) notifications arrived") }
            return (Double(changes) / started.duration(to: finished).seconds, pairs)
        }
    }

    /// The Markdown table `herald bench pipeline` prints.
    public static func table(_ result: Result, changes: Int, subscriptions: Int, partitions: Int32) -> String {
        """
        Pipeline, one process, embedded broker: \(changes) record changes, \(subscriptions) subscriptions (each change fires one),
        \(partitions) partitions. pass-through = consume + produce each message, acknowledged (same broker, same run);
        Herald = record-changes → match → compose → reader store rows. Latency = produce → row counted in the store.

        | path          | changes/s | vs pass-through | p50 latency | p99 latency |
        |---------------|----------:|----------------:|------------:|------------:|
        | pass-through  | \(String(format: "%9.0f", result.passThrough)) |           1.00× |           - |           - |
        | Herald        | \(String(format: "%9.0f", result.pipeline)) | \(String(format: "%14.2f×", result.pipeline / result.passThrough)) | \(pad(result.p50)) | \(pad(result.p99)) |
        """
    }

    private static func pad(_ duration: Duration) -> String {
        let text = String(format: "%.0f ms", duration.seconds * 1000)
        return String(repeating: " ", count: max(0, 11 - text.count)) + text
    }
}
