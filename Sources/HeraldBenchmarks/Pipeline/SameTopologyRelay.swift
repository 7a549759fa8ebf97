import Foundation
import HeraldApp
import HeraldKafka
import HeraldReader
import HeraldStages

/// The pipeline benchmark's headline baseline: Herald's topology without Herald's work.
/// Three relay hops — `record-changes` → `matches` → `notifications` → rows in a reader
/// store — run in this process like the three stages, and relay Herald's own messages read
/// back from its topics (so the same sizes and keys), doing no matching, composing or
/// localizing. The rows are the notifications as the reader stores them, offsets in the
/// same transaction. Measured like Herald: `ChangeFeed` from the first change produced to
/// the last row stored. (Herald also writes its compose state changelog and badge counts;
/// the relay does not.)
struct SameTopologyRelay {
    /// What the relay measured, and the sizes of what it relayed.
    struct Outcome: Sendable {
        var path: PipelineReport.Path
        var matchBytes: Double
        var notificationBytes: Double
    }

    let benchmark: PipelineBenchmark
    let environment: KafkaEnvironment
    let counter: AllocationCounter?

    /// Relays the messages Herald wrote to `heraldCatalog`'s topics.
    /// - Throws: `BenchmarkError` when Herald's topics hold fewer messages than changes, or
    ///   the rows do not arrive.
    func run(replaying heraldCatalog: TopicCatalog) async throws -> Outcome {
        let settings = benchmark.settings
        let matches = try await capture(heraldCatalog.name(TopicCatalog.matches))
        let notifications = try await capture(heraldCatalog.name(TopicCatalog.notifications))
        let catalog = TopicCatalog(prefix: "same.", partitions: settings.partitions)
        _ = try await environment.ensureTopics(catalog)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-same-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try NotificationStore(
            path: directory.appendingPathComponent("reader.sqlite").path,
            tokenSigner: ChangeTokenSigner(keyString: HeraldConfiguration.Secret.development.value),
            retention: benchmark.storeRetention)
        defer { try? store.close() }
        let producer = try KafkaProducer(
            configuration: environment.producerConfiguration(clientID: "bench-same"), logger: benchmark.logger)
        func hop(_ name: String, from input: TopicCatalog.Topic, to output: RelayHop.Output) -> RelayHop {
            RelayHop(
                name: "bench-same-\(name)", input: catalog.name(input), output: output, partitions: settings.partitions,
                environment: environment, producer: producer, logger: benchmark.logger)
        }
        let hops = [
            hop("match", from: TopicCatalog.recordChanges, to: .topic(catalog.name(TopicCatalog.matches), replacements: matches)),
            hop("compose", from: TopicCatalog.matches, to: .topic(catalog.name(TopicCatalog.notifications), replacements: notifications)),
            hop("reader", from: TopicCatalog.notifications, to: .store(store)),
        ]
        let path = try await withThrowingTaskGroup(of: Void.self) { tasks in
            // The feed starts once every hop consumes, as Herald's stages already run when it starts.
            let (polling, started) = AsyncStream.makeStream(of: Void.self)
            for hop in hops {
                tasks.addTask { _ = try await hop.run(count: settings.changes) { started.yield() } }
            }
            var consuming = 0
            for await _ in polling {
                consuming += 1
                if consuming == hops.count { break }
            }
            let path = try await ChangeFeed(
                benchmark: benchmark, topic: catalog.name(TopicCatalog.recordChanges), producer: producer, store: store,
                counter: counter).run()
            try await tasks.waitForAll()
            return path
        }
        await producer.close()
        func average(_ messages: [CapturedMessage]) -> Double {
            Double(messages.reduce(0) { $0 + $1.value.count }) / Double(max(1, messages.count))
        }
        return Outcome(path: path, matchBytes: average(matches), notificationBytes: average(notifications))
    }

    /// The first `changes` messages of `topic` (all partitions, from the beginning).
    private func capture(_ topic: String) async throws -> [CapturedMessage] {
        let count = benchmark.settings.changes
        let name = "bench-capture-\(UUID().uuidString.prefix(8))"
        let consumer = try KafkaConsumer(
            configuration: environment.consumerConfiguration(groupID: name, clientID: name), logger: benchmark.logger)
        try consumer.assign((0..<benchmark.settings.partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        var captured: [CapturedMessage] = []
        captured.reserveCapacity(count)
        let deadline = ContinuousClock.now + .seconds(120)
        while captured.count < count, ContinuousClock.now < deadline {
            for case .messages(let batch) in await consumer.poll() {
                captured += batch.compactMap { message in message.value.map { CapturedMessage(key: message.key, value: $0) } }
            }
        }
        await consumer.close()
        guard captured.count >= count else {
            throw BenchmarkError("\(topic) holds \(captured.count) messages, fewer than the \(count) changes to relay")
        }
        return Array(captured.prefix(count))
    }
}
