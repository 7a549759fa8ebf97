import Foundation
import HeraldKafka
import HeraldModel
import HeraldApp
import HeraldStages
import HeraldTestSupport
import Testing

/// Deleting over the API a subscription whose record is still under its old key: both keys
/// are tombstoned, so reloading the topic does not bring it back.
@Suite("Subscription deletion with an old-key record", .timeLimit(.minutes(5)))
struct LegacySubscriptionDeletionTests {
    typealias F = SubscriptionFixtures

    @Test("the API's delete tombstones the identity key and the old key; a reload finds nothing")
    func deleteTombstonesBothKeys() async throws {
        let fixture = try await PipelineFixture()
        let topic = fixture.catalog.name(TopicCatalog.subscriptions)
        let producer = try fixture.producer()
        let legacy = F.publicNote("notes", owner: "_u1")
        let kept = F.publicNote("notes", owner: "_u2", predicate: "FALSEPREDICATE")
        let value = try WireCodec().encode(legacy)
        _ = try await producer.send([
            OutgoingMessage(topic: topic, key: F.oldKey("notes"), value: value),
            OutgoingMessage(topic: topic, key: kept.partitionKey, value: try WireCodec().encode(kept)),
        ])
        let table = SubscriptionTable()
        for message in try await fixture.read(topic, count: 2) { try table.apply(key: message.keyString, value: message.value) }
        #expect(table.count == 2)

        let publisher = KafkaHeraldPublisher(producer: producer, catalog: fixture.catalog, table: table)
        try await publisher.deleteSubscription(legacy)
        #expect(table.subscription(forKey: legacy.partitionKey) == nil)

        let log = try await fixture.read(topic, count: 4)
        #expect(Set(log.filter { $0.value == nil }.compactMap(\.keyString)) == [legacy.partitionKey, F.oldKey("notes")])
        let reloaded = SubscriptionTable()
        for message in log { try reloaded.apply(key: message.keyString, value: message.value) }
        #expect(reloaded.count == 1)
        #expect(reloaded.subscription(forKey: kept.partitionKey) == kept, "the other user's subscription of the same ID stays")
        await producer.close()
    }
}
