import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Testing

/// The match stage's loader gathers the polls of a backlog into one batch
/// (`PlacedSubscriptionLoader.backlogBatch`): what it files is what the topic holds last.
@Suite("Placed subscription loader", .timeLimit(.minutes(5)))
struct PlacedSubscriptionLoaderTests {
    typealias F = SubscriptionFixtures

    @Test("many small polls gathered into one batch are filed in the topic's order: updates and tombstones win")
    func gathersPollsInOrder() async throws {
        let fixture = try await PipelineFixture(partitions: 3)
        let producer = try fixture.producer()
        let first = (0..<300).map { F.publicNote("s\($0)", owner: "_u\($0)", predicate: "priority > \($0)") }
        let updated = first.indices.filter { $0 % 3 == 0 }.map { F.publicNote("s\($0)", owner: "_u\($0)", predicate: "priority < \($0)") }
        let removed = first.indices.filter { $0 % 5 == 0 }.map { first[$0] }
        let topic = fixture.catalog.name(TopicCatalog.subscriptions)
        _ = try await producer.send(
            F.placed(first + updated, on: topic, partitions: 3) + F.placed(removed, on: topic, partitions: 3, tombstones: true))
        let table = PlacedSubscriptionTable(partitions: 3)
        table.hold(0..<3)
        // Polls of at most 7 messages: the loader gathers dozens of them into each batch.
        let context = StageContext(catalog: fixture.catalog, producer: producer, readiness: nil, logger: fixture.logger) { purpose in
            var settings = fixture.environment.consumerConfiguration(groupID: "\(purpose)-\(UUID().uuidString)", clientID: "test")
            settings.maxBatchSize = 7
            return try KafkaConsumer(configuration: settings, logger: fixture.logger)
        }
        let ready = try await fixture.run([try PlacedSubscriptionLoader(table: table, consumer: "placed", context: context)]) {
            try await Wait.until(timeout: .seconds(60)) { table.isReady }
        }
        #expect(ready)
        var expected: [String: String] = [:]
        for subscription in first + updated { expected[subscription.partitionKey] = subscription.query?.predicate }
        for subscription in removed { expected[subscription.partitionKey] = nil }
        var held: [String: String] = [:]
        for partition in Int32(0)..<3 {
            for subscription in table.withIndex(on: partition, { $0.all }) ?? [] {
                held[subscription.partitionKey] = subscription.query?.predicate
            }
        }
        #expect(held.count == 240)
        #expect(held == expected)
        await producer.close()
    }
}
