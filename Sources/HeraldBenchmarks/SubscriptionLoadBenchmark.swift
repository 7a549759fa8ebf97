import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import Logging

/// How long a match instance takes to load the `subscriptions` topic and be ready: the
/// matcher benchmark's subscriptions are produced to the embedded broker, each on its
/// placement partition (as the API writes them), then read twice into fresh tables, the
/// clock running from the loader's creation to the table's readiness:
/// - by the match stage's `PlacedSubscriptionLoader`, one instance holding every partition;
/// - by the `SubscriptionTableLoader` (the whole topic, into memory, as the API read it
///   before its directory moved to SQLite);
/// and, first, by the API's `SubscriptionDirectoryLoader` into a `SubscriptionStore` in a
/// temporary directory (the whole topic, into SQLite), then again by a second loader on the
/// same file (a restart, which resumes from the saved offsets). Resident memory is read
/// before and after the directory's load and the whole table's (the table still held).
///
/// The embedded broker (librdkafka's mock cluster) keeps only the last few megabytes of each
/// partition, so the subscriptions are spread over one partition per 10,000.
struct SubscriptionLoadBenchmark {
    /// One loader's time to readiness.
    struct Load: Sendable {
        var seconds: Double
        /// CPU seconds of the whole process meanwhile (the embedded broker included).
        var cpuSeconds: Double
        /// Resident memory after the load less before it (`/proc/self/statm`); 0 where unknown.
        var residentBytes = 0
    }

    /// The four loads measured.
    struct Loads: Sendable {
        var placed: Load
        var whole: Load
        /// The API's directory in SQLite, from an empty store.
        var directory: Load
        /// The directory again on the same file: its time to readiness.
        var directoryRestart: Load
    }

    let count: Int
    let logger: Logger

    private var partitions: Int32 { Int32(max(1, (count + 9_999) / 10_000)) }

    /// The API directory's load and restart, then the match stage's load, then the whole table's.
    /// - Throws: `BenchmarkError` when a loader stops early or a table misses subscriptions.
    func run() async throws -> Loads {
        let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        let catalog = TopicCatalog(prefix: "load.", partitions: partitions)
        _ = try await environment.ensureTopics(catalog)
        let producer = try KafkaProducer(configuration: environment.producerConfiguration(clientID: "bench-load"), logger: logger)
        try await produce(to: catalog.name(TopicCatalog.subscriptions), with: producer)
        let context = StageContext(catalog: catalog, producer: producer, readiness: nil, logger: logger) { purpose in
            try KafkaConsumer(
                configuration: environment.consumerConfiguration(groupID: "load.\(purpose)", clientID: "bench-\(purpose)"),
                logger: logger)
        }
        let (directory, directoryRestart) = try await loadDirectory(context: context, environment: environment)
        let placedTable = PlacedSubscriptionTable(partitions: partitions)
        let placed = try await time { () async throws -> Void in
            placedTable.hold(0..<partitions)
            let loader = try PlacedSubscriptionLoader(table: placedTable, consumer: "match-table", context: context)
            try await Self.load({ try await loader.run() }) { try await placedTable.waitUntilLoaded(0..<partitions) }
        }
        let placedCount = placedTable.count
        placedTable.release(0..<partitions)
        let table = SubscriptionTable()
        let wholeBefore = MatcherBenchmark.residentBytes()
        var whole = try await time { () async throws -> Void in
            let loader = try SubscriptionTableLoader(table: table, consumer: "match-subscriptions", context: context)
            try await Self.load({ try await loader.run() }) { await table.waitUntilReady() }
        }
        whole.residentBytes = MatcherBenchmark.residentBytes() - wholeBefore
        await producer.close()
        withExtendedLifetime(environment) {}
        for (name, held) in [("match stage's", placedCount), ("whole", table.count)] where held != count {
            throw BenchmarkError("the \(name) subscription loader holds \(held) of \(count) subscriptions")
        }
        return Loads(placed: placed, whole: whole, directory: directory, directoryRestart: directoryRestart)
    }

    /// The API directory's load into a fresh SQLite file, then a restart's on the same file.
    private func loadDirectory(context: StageContext, environment: KafkaEnvironment) async throws -> (Load, Load) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("subscriptions.sqlite").path
        var loads: [Load] = []
        for _ in 0..<2 {
            let before = MatcherBenchmark.residentBytes()
            let directory = StoredSubscriptionDirectory(store: try SubscriptionStore(path: path), partitions: partitions)
            var load = try await time { () async throws -> Void in
                let loader = try SubscriptionDirectoryLoader(
                    directory: directory, context: context, clusterQualifier: environment.embeddedRunID)
                try await Self.load({ try await loader.run() }) { await directory.waitUntilReady() }
            }
            load.residentBytes = MatcherBenchmark.residentBytes() - before
            let held = try directory.count()
            try directory.store.close()
            if held != count { throw BenchmarkError("the API's subscription directory holds \(held) of \(count) subscriptions") }
            loads.append(load)
        }
        return (loads[0], loads[1])
    }

    private func time(_ body: () async throws -> Void) async throws -> Load {
        let started = ContinuousClock.now
        let usage = ResourceUsage.now(nil)
        try await body()
        return Load(seconds: started.duration(to: .now).seconds, cpuSeconds: ResourceUsage.now(nil).since(usage).cpuSeconds)
    }

    /// Runs a loader (`run`) until `ready` returns, then stops it.
    private static func load(
        _ run: @escaping @Sendable () async throws -> Void, until ready: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                try await run()
                return false
            }
            tasks.addTask {
                try await ready()
                return true
            }
            // Cancelled once the table is ready; stopping before that is a failure.
            guard try await tasks.next() == true else { throw BenchmarkError("the subscription loader stopped before it was ready") }
            tasks.cancelAll()
            try await tasks.waitForAll()
        }
    }

    /// The matcher benchmark's mix, keyed and placed as the API writes them.
    private func produce(to topic: String, with producer: KafkaProducer) async throws {
        let codec = WireCodec()
        let placement = SubscriptionPlacement(partitions: partitions)
        var random = SplitMix(seed: UInt64(count))
        let spread = max(100, count)
        for start in stride(from: 0, to: count, by: 10_000) {
            let messages = try (start..<min(count, start + 10_000)).map { number in
                let subscription = MatcherBenchmark.subscription(number, spread: spread, &random)
                return OutgoingMessage(
                    topic: topic, partition: placement.partition(of: subscription), key: subscription.partitionKey,
                    value: try codec.encode(subscription))
            }
            _ = try await producer.send(messages)
        }
    }
}
