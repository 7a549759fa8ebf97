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
        configuration.retention = benchmark.storeRetention
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
        let topic = catalog.name(TopicCatalog.recordChanges)
        let path = try await ChangeFeed(
            benchmark: benchmark, topic: topic, producer: runtime.producer, store: store, counter: counter).run()
        let settings = benchmark.settings
        guard settings.pacedSeconds > 0 else { return Outcome(path: path, paced: nil) }
        let paced = try await PacedLoad(
            benchmark: benchmark, producer: runtime.producer, topic: topic, httpPort: try await runtime.listeningPort(),
            rate: settings.pacedRate ?? max(1, path.changesPerSecond / 2), seconds: settings.pacedSeconds,
            firstChange: settings.changes, trace: ProbeTrace(environment: environment, catalog: catalog, logger: benchmark.logger),
            probe: settings.probe
        ).run()
        return Outcome(path: path, paced: paced)
    }

    /// Registers the subscriptions (`s0`… with `category == 'c0'`…, ~10 per user, and one
    /// per probe user of the paced run) and waits until the match stage holds them all.
    private func subscribe(_ runtime: HeraldRuntime) async throws {
        let codec = WireCodec()
        let placement = SubscriptionPlacement(partitions: catalog.partitions)
        func message(_ id: String, owner: String, category: String) throws -> OutgoingMessage {
            let subscription = Subscription(
                subscriptionID: id, subscriptionType: .query, container: PacedLoad.container, database: .public,
                ownerRecordName: owner, query: SubscriptionQuery(recordType: "Item", predicate: "category == '\(category)'"),
                firesOn: [.create], notificationInfo: NotificationInfo(alertBody: "New item", shouldBadge: true, desiredKeys: ["title"]))
            return OutgoingMessage(
                topic: catalog.name(TopicCatalog.subscriptions), partition: placement.partition(of: subscription),
                key: subscription.partitionKey, value: try codec.encode(subscription))
        }
        let regular = benchmark.settings.subscriptions
        let messages = try (0..<regular).map { try message("s\($0)", owner: "_u\($0 % 1_000)", category: "c\($0)") }
            + (0..<PacedLoad.probeUsers).map { try message("probe-s\($0)", owner: "_probe\($0)", category: PacedLoad.probeCategory($0)) }
        let count = messages.count
        _ = try await runtime.producer.send(messages)
        guard let table = runtime.matchTable else { throw BenchmarkError("the pipeline stages did not start") }
        let deadline = ContinuousClock.now + .seconds(300)
        while table.count < count {
            guard ContinuousClock.now < deadline else { throw BenchmarkError("the match stage loaded \(table.count) of \(count) subscriptions") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
