import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages

/// Herald's part of the pipeline benchmark: the match, compose and reader stages with the
/// HTTP API, built by `HeraldApp.buildRuntime` as `herald run --stages match,compose,reader`
/// wires them, first at maximum rate (`ChangeFeed`), then paced (`PacedLoad`).
///
/// The paced run gets a runtime and topics of its own by default (`PacedTopics.fresh`): the
/// embedded broker finds a fetch's position by walking the partition's whole log from its
/// oldest batch (librdkafka 2.0.2's `rd_kafka_mock_msgset_find`, "FIXME: Maintain an
/// index"), so on the maximum-rate run's topics every fetch of the paced run would first
/// walk that run's leftovers, a cost of this benchmark's order that a real broker, which
/// indexes its log, does not have. The baselines run on topics of their own too.
struct HeraldPipelineRun {
    /// What the run measured.
    struct Outcome: Sendable {
        var path: PipelineReport.Path
        var paced: PipelineReport.Paced?
    }

    let benchmark: PipelineBenchmark
    let environment: KafkaEnvironment
    let counter: AllocationCounter?
    /// The maximum-rate run's topics (which the same-topology relay replays).
    let catalog: TopicCatalog
    /// The paced run's topics: `catalog` itself with `PacedTopics.shared`.
    let pacedCatalog: TopicCatalog

    init(benchmark: PipelineBenchmark, environment: KafkaEnvironment, counter: AllocationCounter?) {
        self.benchmark = benchmark
        self.environment = environment
        self.counter = counter
        let partitions = benchmark.settings.partitions
        catalog = TopicCatalog(prefix: "bench.", partitions: partitions)
        pacedCatalog = switch benchmark.settings.pacedTopics {
        case .fresh: TopicCatalog(prefix: "bench-paced.", partitions: partitions)
        case .shared: catalog
        }
    }

    func run() async throws -> Outcome {
        let settings = benchmark.settings
        let pacing = settings.pacedSeconds > 0
        let sharesTopics = settings.pacedTopics == .shared
        let first = try await withRuntime(on: catalog) { runtime in
            try await subscribe(runtime, on: catalog)
            let path = try await maximumRate(runtime)
            let paced = pacing && sharesTopics ? try await pace(runtime, on: catalog, maximum: path.changesPerSecond) : nil
            return Outcome(path: path, paced: paced)
        }
        guard pacing, !sharesTopics else { return first }
        let paced = try await withRuntime(on: pacedCatalog) { runtime in
            try await subscribe(runtime, on: pacedCatalog)
            return try await pace(runtime, on: pacedCatalog, maximum: first.path.changesPerSecond)
        }
        return Outcome(path: first.path, paced: paced)
    }

    /// Runs `body` with a Herald runtime on `catalog`'s topics (a data directory of its own),
    /// then shuts the runtime down.
    private func withRuntime<Result: Sendable>(
        on catalog: TopicCatalog, _ body: (HeraldRuntime) async throws -> Result
    ) async throws -> Result {
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
                let result = try await body(runtime)
                await runtime.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await runtime.triggerGracefulShutdown()
                throw error
            }
        }
    }

    /// The maximum-rate run on `catalog`.
    private func maximumRate(_ runtime: HeraldRuntime) async throws -> PipelineReport.Path {
        guard let store = runtime.store else { throw BenchmarkError("the pipeline stages did not start") }
        return try await ChangeFeed(
            benchmark: benchmark, topic: catalog.name(TopicCatalog.recordChanges), producer: runtime.producer, store: store,
            counter: counter
        ).run()
    }

    /// The paced run on `catalog`, at the asked rate or half of `maximum`.
    private func pace(_ runtime: HeraldRuntime, on catalog: TopicCatalog, maximum: Double) async throws -> PipelineReport.Paced {
        let settings = benchmark.settings
        var paced = try await PacedLoad(
            benchmark: benchmark, producer: runtime.producer, topic: catalog.name(TopicCatalog.recordChanges),
            httpPort: try await runtime.listeningPort(), rate: settings.pacedRate ?? max(1, maximum / 2),
            seconds: settings.pacedSeconds, firstChange: settings.changes,
            trace: ProbeTrace(environment: environment, catalog: catalog, logger: benchmark.logger), probe: settings.probe
        ).run()
        paced.topics = settings.pacedTopics
        return paced
    }

    /// Registers the subscriptions (`s0`… with `category == 'c0'`…, ~10 per user, and one
    /// per probe user of the paced run) and waits until the match stage holds them all.
    private func subscribe(_ runtime: HeraldRuntime, on catalog: TopicCatalog) async throws {
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
