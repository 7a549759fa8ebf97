import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Testing

/// The loaders prepare records (decode, compile) on every core ahead of filing them in the
/// topic's order (`SubscriptionRecord`): the tables end up as when each record is applied as
/// it comes.
@Suite("Subscription records prepared ahead", .timeLimit(.minutes(5)))
struct SubscriptionRecordTests {
    typealias F = SubscriptionFixtures

    /// A topic's records: valid ones, a duplicate, tombstones, a value that does not decode,
    /// an invalid predicate, a wrong key, and old-key records (valid and invalid).
    private static func records() throws -> [(key: String?, value: Data?)] {
        let codec = WireCodec()
        let a = F.publicNote("a", owner: "_u1", predicate: "priority > 3")
        let b = F.publicNote("b", owner: "_u1", predicate: "priority < 1")
        let copy = F.publicNote("copy", owner: "_u1", predicate: "priority > 3")
        let broken = F.publicNote("broken", owner: "_u2", predicate: "priority >")
        let legacy = F.publicNote("legacy", owner: "_u3")
        let legacyBroken = F.publicNote("legacy-broken", owner: "_u3", predicate: "x >")
        return [
            (a.partitionKey, try codec.encode(a)),
            (b.partitionKey, try codec.encode(b)),
            (copy.partitionKey, try codec.encode(copy)),
            (broken.partitionKey, try codec.encode(broken)),
            ("nonsense", try codec.encode(b)),
            (b.partitionKey, Data("{\"subscriptionID\": 7}".utf8)),
            (F.oldKey("legacy"), try codec.encode(legacy)),
            (legacy.partitionKey, try codec.encode(legacy)),
            (F.oldKey("legacy-broken"), try codec.encode(legacyBroken)),
            (b.partitionKey, nil),
            (nil, nil),
            (nil, try codec.encode(copy)),
        ]
    }

    private static func outcome(_ body: () throws(Rejection.Reason) -> Void) -> String {
        do throws(Rejection.Reason) {
            try body()
            return "ok"
        } catch {
            return error.description
        }
    }

    @Test("the whole table: every record prepared before any is applied gives the same table and rejections")
    func wholeTable() throws {
        let records = try Self.records()
        let direct = SubscriptionTable(partitions: 4)
        let directOutcomes = records.map { record in Self.outcome { () throws(Rejection.Reason) in try direct.apply(key: record.key, value: record.value, partition: 1) } }
        let ahead = SubscriptionTable(partitions: 4)
        let prepared = records.map { ahead.prepare(key: $0.key, value: $0.value) }
        let aheadOutcomes = prepared.map { record in Self.outcome { () throws(Rejection.Reason) in try ahead.apply(record, partition: 1) } }
        #expect(aheadOutcomes == directOutcomes)
        #expect(directOutcomes.filter { $0 != "ok" }.count == 7, "\(directOutcomes)")
        #expect(ahead.count == direct.count)
        #expect(Set(ahead.withIndex { $0.all.map(\.partitionKey) }) == Set(direct.withIndex { $0.all.map(\.partitionKey) }))
    }

    @Test("the match stage's table: every record prepared before any is applied gives the same table and rejections")
    func placedTable() throws {
        let records = try Self.records()
        let direct = PlacedSubscriptionTable(partitions: 1)
        let ahead = PlacedSubscriptionTable(partitions: 1)
        direct.hold([0])
        ahead.hold([0])
        let epoch = try #require(direct.heldPartitions[0])
        let directOutcomes = records.map { record in
            Self.outcome { () throws(Rejection.Reason) in try direct.apply(partition: 0, epoch: epoch, key: record.key, value: record.value) }
        }
        let prepared = records.map { ahead.prepare(key: $0.key, value: $0.value) }
        let aheadEpoch = try #require(ahead.heldPartitions[0])
        let aheadOutcomes = prepared.map { record in Self.outcome { () throws(Rejection.Reason) in try ahead.apply(record, partition: 0, epoch: aheadEpoch) } }
        #expect(aheadOutcomes == directOutcomes)
        #expect(ahead.counts == direct.counts)
        #expect(ahead.legacyKeyCount == direct.legacyKeyCount)
        #expect(ahead.withIndex(on: 0) { Set($0.all.map(\.partitionKey)) } == direct.withIndex(on: 0) { Set($0.all.map(\.partitionKey)) })
    }

    @Test("both loaders read many batches, prepared on every core: every valid subscription, each bad one dead-lettered once")
    func loaders() async throws {
        let fixture = try await PipelineFixture(partitions: 3)
        let producer = try fixture.producer()
        let subscriptions = (0..<600).map { F.publicNote("s\($0)", owner: "_u\($0)", predicate: $0 % 50 == 7 ? "priority >" : "priority > \($0)") }
        _ = try await producer.send(F.placed(subscriptions, on: fixture.catalog.name(TopicCatalog.subscriptions), partitions: 3))
        let whole = SubscriptionTable(partitions: 3)
        let placed = PlacedSubscriptionTable(partitions: 3)
        placed.hold(0..<3)
        let context = fixture.context(producer: producer)
        let services: [any Service] = [
            try SubscriptionTableLoader(table: whole, consumer: "whole", context: context),
            try PlacedSubscriptionLoader(table: placed, consumer: "placed", context: context),
        ]
        let ready = try await fixture.run(services) {
            try await Wait.until(timeout: .seconds(60)) { whole.isReady && placed.isReady }
        }
        #expect(ready)
        #expect(whole.count == 588)
        #expect(placed.count == 588)
        let letters = try await fixture.read(fixture.catalog.name(TopicCatalog.deadLetters), count: 24, timeout: .seconds(30))
            .compactMap(DeadLetter.Record.init)
        #expect(letters.count == 24)
        #expect(letters.allSatisfy { $0.stage == "match.subscriptions" && $0.code == "INVALID_PREDICATE" })
        let bad = Set(subscriptions.enumerated().filter { $0.offset % 50 == 7 }.map(\.element.partitionKey))
        #expect(Dictionary(grouping: letters) { $0.key.map { String(decoding: $0, as: UTF8.self) } ?? "" }.mapValues(\.count) == Dictionary(uniqueKeysWithValues: bad.map { ($0, 2) }))
        await producer.close()
    }
}
