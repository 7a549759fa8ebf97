import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// `herald subscriptions migrate` against the embedded broker: a topic written before
/// per-user IDs is re-keyed by owner, once.
@Suite("Subscription key migration", .timeLimit(.minutes(5)))
struct SubscriptionKeyMigrationTests {
    typealias F = SubscriptionFixtures

    private func migrate(_ fixture: PipelineFixture, _ producer: KafkaProducer, dryRun: Bool) async throws -> SubscriptionKeyMigration.Report {
        try await SubscriptionKeyMigrator(
            consumer: try fixture.consumer(group: "migrate-\(UUID().uuidString)", reportsPartitionEnds: true), producer: producer,
            topic: fixture.catalog.name(TopicCatalog.subscriptions), partitions: Array(0..<fixture.catalog.partitions),
            logger: fixture.logger
        ).run(dryRun: dryRun)
    }

    @Test("old keys are re-keyed by owner and tombstoned; a dry run sends nothing; a second run finds nothing to do")
    func migrate() async throws {
        let fixture = try await PipelineFixture()
        let topic = fixture.catalog.name(TopicCatalog.subscriptions)
        let producer = try fixture.producer()
        let codec = WireCodec()
        let notes = F.publicNote("notes", owner: "_u1")
        let other = F.publicNote("private-changes", owner: "_u2")
        let gone = F.publicNote("gone", owner: "_u1", predicate: "FALSEPREDICATE")
        let resaved = F.publicNote("again", owner: "_u1", predicate: "TRUEPREDICATE AND TRUEPREDICATE")
        let current = F.publicNote("private-changes", owner: "_u3")
        _ = try await producer.send([
            // Written by other partitioners: the old-key tombstones must land beside them.
            OutgoingMessage(topic: topic, partition: 1, key: F.oldKey("notes"), value: try codec.encode(notes)),
            OutgoingMessage(topic: topic, partition: 0, key: F.oldKey("private-changes"), value: try codec.encode(other)),
            OutgoingMessage(topic: topic, key: F.oldKey("gone"), value: try codec.encode(gone)),
            OutgoingMessage(topic: topic, key: F.oldKey("gone"), value: nil),
            OutgoingMessage(topic: topic, key: F.oldKey("again"), value: try codec.encode(F.publicNote("again", owner: "_u1", predicate: "NOT FALSEPREDICATE"))),
            OutgoingMessage(topic: topic, key: resaved.partitionKey, value: try codec.encode(resaved)),
            OutgoingMessage(topic: topic, key: current.partitionKey, value: try codec.encode(current)),
            OutgoingMessage(topic: topic, key: "junk", value: Data("{}".utf8)),
        ])

        var expected = SubscriptionKeyMigration.Report()
        expected.recordsRead = 8
        expected.subscriptions = 6
        expected.current = 2
        expected.rekeyed = 2
        expected.superseded = 1
        expected.unreadable = 1
        expected.dryRun = true
        #expect(try await migrate(fixture, producer, dryRun: true) == expected)
        expected.dryRun = false
        #expect(try await migrate(fixture, producer, dryRun: false) == expected)

        // 8 records, then 2 re-keyed subscriptions and 3 old-key tombstones.
        let log = try await fixture.read(topic, count: 13)
        #expect(log.count == 13)
        let table = SubscriptionTable()
        for message in log { try? table.apply(key: message.keyString, value: message.value) }
        #expect(table.count == 4)
        #expect(table.subscription(forKey: notes.partitionKey) == notes)
        #expect(table.subscription(forKey: other.partitionKey) == other)
        #expect(table.subscription(forKey: current.partitionKey) == current)
        #expect(table.subscription(forKey: resaved.partitionKey) == resaved, "the record under the new key stays")
        #expect(table.oldKey(of: notes) == nil, "its old key is tombstoned")
        let tombstones = log.filter { $0.value == nil && $0.keyString != F.oldKey("gone") }
        #expect(Set(tombstones.map { "\($0.partition) \($0.keyString ?? "")" })
                == ["1 \(F.oldKey("notes"))", "0 \(F.oldKey("private-changes"))", "\(log.first { $0.keyString == F.oldKey("again") }!.partition) \(F.oldKey("again"))"])

        var again = SubscriptionKeyMigration.Report()
        again.recordsRead = 13
        again.subscriptions = 5
        again.current = 4
        again.unreadable = 1
        #expect(try await migrate(fixture, producer, dryRun: false) == again)
        // Every send of `migrate` is acknowledged before it returns, so the end offsets say
        // whether it sent anything (no waiting for messages that should not come).
        let stored = try await fixture.reader.endOffsets([topic], partitions: fixture.catalog.partitions).values.reduce(0, +)
        #expect(stored == 13, "the second run sent nothing")
        await producer.close()
    }

    @Test("a consumer that does not report partition ends is refused before anything is read or sent")
    func refusesAConsumerWithoutPartitionEnds() async throws {
        let fixture = try await PipelineFixture()
        let producer = try fixture.producer()
        let migrator = SubscriptionKeyMigrator(
            consumer: try fixture.consumer(group: "migrate-\(UUID().uuidString)"), producer: producer,
            topic: fixture.catalog.name(TopicCatalog.subscriptions), partitions: Array(0..<fixture.catalog.partitions),
            logger: fixture.logger)
        let error = await #expect(throws: PipelineError.self) { try await migrator.run(dryRun: false) }
        #expect(error?.code == .configuration)
        await producer.close()
    }
}
