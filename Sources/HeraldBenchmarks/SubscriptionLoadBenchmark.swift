import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import Logging

/// How long a match instance takes to load the `subscriptions` topic and be ready: the
/// matcher benchmark's subscriptions are produced to the embedded broker, then the match
/// stage's own `SubscriptionTableLoader` reads them into a fresh `SubscriptionTable`; the
/// clock runs from the loader's creation to the table's readiness.
///
/// The embedded broker (librdkafka's mock cluster) keeps only the last few megabytes of each
/// partition, so the subscriptions are spread over one partition per 10,000.
struct SubscriptionLoadBenchmark {
    let count: Int
    let logger: Logger

    private var partitions: Int32 { Int32(max(1, (count + 9_999) / 10_000)) }

    /// Seconds from creating the loader to the table being ready.
    /// - Throws: `BenchmarkError` when the loader stops early or the table misses subscriptions.
    func run() async throws -> Double {
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
        let started = ContinuousClock.now
        let table = SubscriptionTable()
        let loader = try SubscriptionTableLoader(table: table, consumer: "match-subscriptions", context: context)
        let seconds = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try await loader.run()
                // Cancelled once the table is ready; stopping before that is a failure.
                guard table.isReady else { throw BenchmarkError("the subscription loader stopped before it was ready") }
            }
            tasks.addTask { await table.waitUntilReady() }
            try await tasks.next()
            let seconds = started.duration(to: .now).seconds
            tasks.cancelAll()
            try await tasks.waitForAll()
            return seconds
        }
        await producer.close()
        withExtendedLifetime(environment) {}
        guard table.count == count else {
            throw BenchmarkError("the subscription loader holds \(table.count) of \(count) subscriptions")
        }
        return seconds
    }

    /// The matcher benchmark's mix, keyed as the API writes them.
    private func produce(to topic: String, with producer: KafkaProducer) async throws {
        let codec = WireCodec()
        var random = SplitMix(seed: UInt64(count))
        let spread = max(100, count)
        for start in stride(from: 0, to: count, by: 10_000) {
            let messages = try (start..<min(count, start + 10_000)).map { number in
                let subscription = MatcherBenchmark.subscription(number, spread: spread, &random)
                return OutgoingMessage(topic: topic, key: subscription.partitionKey, value: try codec.encode(subscription))
            }
            _ = try await producer.send(messages)
        }
    }
}
