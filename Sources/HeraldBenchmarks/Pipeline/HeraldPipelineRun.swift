import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages

/// Herald's part of the pipeline benchmark: the match, compose and reader stages with the
/// HTTP API, built by `HeraldApp.buildRuntime` as `herald run --stages match,compose,reader`
/// wires them, first at maximum rate (`ChangeFeed`), then paced (`PacedLoad`).
struct HeraldPipelineRun {
    /// What the run measured.
    struct Outcome: Sendable {
        var path: PipelineReport.Path
        var paced: PipelineReport.Paced?
    }

    let benchmark: PipelineBenchmark
    let environment: KafkaEnvironment
    let counter: AllocationCounter?
    let catalog: TopicCatalog

    init(benchmark: PipelineBenchmark, environment: KafkaEnvironment, counter: AllocationCounter?) {
        self.benchmark = benchmark
        self.environment = environment
        self.counter = counter
        catalog = TopicCatalog(prefix: "bench.", partitions: benchmark.settings.partitions)
    }

    func run() async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = HeraldConfiguration(
            instanceID: "bench", dataDirectory: directory.path, tokenKey: .development, jwtSecret: .developmentJWT)
        configuration.stages = [.match, .compose, .reader]
        configuration.httpHost = "127.0.0.1"
        configuration.httpPort = 0
        let runtime = try await HeraldApp.buildRuntime(
            configuration, environment: environment, catalog: catalog, logSink: LogTopicSink(), logger: benchmark.logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            do {
                let outcome = try await measure(runtime)
                await runtime.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return outcome
            } catch {
                await runtime.triggerGracefulShutdown()
                throw error
            }
        }
    }

    private func measure(_ runtime: HeraldRuntime) async throws -> Outcome {
        try await subscribe(runtime)
        guard let store = runtime.store else { throw BenchmarkError("the pipeline stages did not start") }
        let path = try await ChangeFeed(
            benchmark: benchmark, topic: catalog.name(TopicCatalog.recordChanges), producer: runtime.producer,
            store: store, counter: counter).run()
        return Outcome(path: path, paced: nil)
    }

    /// Registers the subscriptions (`s0`… with `category == 'c0'`…, ~10 per user) and
    /// waits until the match stage holds them all.
    private func subscribe(_ runtime: HeraldRuntime) async throws {
        let codec = WireCodec()
        let count = benchmark.settings.subscriptions
        let messages = try (0..<count).map { k in
            let subscription = Subscription(
                subscriptionID: "s\(k)", subscriptionType: .query, container: "iCloud.bench", database: .public,
                ownerRecordName: "_u\(k % 1_000)", query: SubscriptionQuery(recordType: "Item", predicate: "category == 'c\(k)'"),
                firesOn: [.create], notificationInfo: NotificationInfo(alertBody: "New item", shouldBadge: true, desiredKeys: ["title"]))
            return OutgoingMessage(
                topic: catalog.name(TopicCatalog.subscriptions), key: subscription.partitionKey, value: try codec.encode(subscription))
        }
        _ = try await runtime.producer.send(messages)
        guard let table = runtime.table else { throw BenchmarkError("the pipeline stages did not start") }
        let deadline = ContinuousClock.now + .seconds(300)
        while table.count < count {
            guard ContinuousClock.now < deadline else { throw BenchmarkError("the match stage loaded \(table.count) of \(count) subscriptions") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
