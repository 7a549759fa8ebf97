import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import Logging

/// How long a match instance takes to load the `subscriptions` topic and be ready: the
/// matcher benchmark's subscriptions are produced to the embedded broker, each on its
/// placement partition (as the API writes them), then read twice into fresh tables, the
/// clock running from the loader's creation to the table's readiness:
/// - by the match stage's `PlacedSubscriptionLoader`, one instance holding every partition;
/// - by the `SubscriptionTableLoader` (the whole topic, as the API's table reads it).
///
/// The embedded broker (librdkafka's mock cluster) keeps only the last few megabytes of each
/// partition, so the subscriptions are spread over one partition per 10,000.
struct SubscriptionLoadBenchmark {
    /// One loader's time to readiness.
    struct Load: Sendable {
        var seconds: Double
        /// CPU seconds of the whole process meanwhile (the embedded broker included).
        var cpuSeconds: Double
    }

    let count: Int
    let logger: Logger

    private var partitions: Int32 { Int32(max(1, (count + 9_999) / 10_000)) }

    /// The match stage's load, then the whole table's.
    /// - Throws: `BenchmarkError` when a loader stops early or a table misses subscriptions.
    func run() async throws -> (placed: Load, whole: Load) {
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
        let placedTable = PlacedSubscriptionTable(partitions: partitions)
        let placed = try await time { () async throws -> Void in
            placedTable.hold(0..<partitions)
            let loader = try PlacedSubscriptionLoader(table: placedTable, consumer: "match-table", context: context)
            try await Self.load({ try await loader.run() }) { try await placedTable.waitUntilLoaded(0..<partitions) }
        }
        let placedCount = placedTable.count
        placedTable.release(0..<partitions)
        let table = SubscriptionTable()
        let whole = try await time { () async throws -> Void in
            let loader = try SubscriptionTableLoader(table: table, consumer: "match-subscriptions", context: context)
            try await Self.load({ try await loader.run() }) { await table.waitUntilReady() }
        }
        await producer.close()
        withExtendedLifetime(environment) {}
        for (name, held) in [("match stage's", placedCount), ("whole", table.count)] where held != count {
            throw BenchmarkError("the \(name) subscription loader holds \(held) of \(count) subscriptions")
        }
        return (placed, whole)
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
