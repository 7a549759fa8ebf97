import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// The match stage as `herald run --stages match` builds it (`HeraldApp.buildRuntime`), on
/// the embedded broker.
@Suite("Match stage", .timeLimit(.minutes(5)))
struct MatchStageTests {
    private let container = "iCloud.com.example.notes"

    private func subscriptionJSON(_ id: String, owner: String, predicate: String, firesOnce: Bool = false) -> Data {
        Data("""
            {"subscriptionID": "\(id)", "subscriptionType": "query", "container": "\(container)", "database": "private",
             "ownerRecordName": "\(owner)", "query": {"recordType": "Note", "predicate": "\(predicate)"},
             "firesOn": ["create", "update"], "firesOnce": \(firesOnce), "notificationInfo": {"alertBody": "changed"}}
            """.utf8)
    }

    private func changeJSON(_ id: String, owner: String, priority: Int) -> Data {
        Data("""
            {"changeID": "\(id)", "container": "\(container)", "database": "private",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "\(owner)"}, "recordType": "Note", "recordName": "n-\(id)",
             "kind": "create", "fields": {"priority": {"value": \(priority), "type": "INT64"}}, "timestamp": 1795300000000}
            """.utf8)
    }

    /// Whether a tombstone of `key` appears on `partition` of `topic` within 30 s.
    private static func tombstoned(_ key: String, on partition: Int32, of topic: String, in fixture: PipelineFixture) async throws -> Bool {
        try await Wait.until(timeout: .seconds(30)) {
            try await fixture.readToEnd(topic).contains { $0.value == nil && $0.keyString == key && $0.partition == partition }
        }
    }

    @Test("subscriptions from the compacted topic fire matches keyed by recipient; misplaced ones are re-placed; bad input goes to dead letters")
    func endToEnd() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let subscriptions = catalog.name(TopicCatalog.subscriptions)
        let changes = catalog.name(TopicCatalog.recordChanges)
        let container = self.container
        let key = { @Sendable (owner: String, id: String) in "\(container)/private/\(owner)/\(id)" }
        let producer = try fixture.producer()
        // Written by key, as before placement: the match stage re-places them on their owner's partition.
        _ = try await producer.send([
            OutgoingMessage(topic: subscriptions, key: key("_u1", "urgent"), value: subscriptionJSON("urgent", owner: "_u1", predicate: "priority >= 3")),
            OutgoingMessage(topic: subscriptions, key: key("_u1", "gone"), value: subscriptionJSON("gone", owner: "_u1", predicate: "priority >= 0")),
            OutgoingMessage(topic: subscriptions, key: key("_u1", "gone"), value: nil),
            OutgoingMessage(topic: subscriptions, key: key("_u2", "once"), value: subscriptionJSON("once", owner: "_u2", predicate: "priority >= 0", firesOnce: true)),
            OutgoingMessage(topic: subscriptions, key: key("_u1", "broken"), value: subscriptionJSON("broken", owner: "_u1", predicate: "priority >")),
        ])
        // Keyed by zone, as before owner keys: matched all the same (through change-fanout when misrouted).
        _ = try await producer.send([
            OutgoingMessage(topic: changes, key: "z1", value: changeJSON("c1", owner: "_u1", priority: 5)),
            OutgoingMessage(topic: changes, key: "z1", value: changeJSON("c2", owner: "_u1", priority: 1)),
            OutgoingMessage(topic: changes, key: "z2", value: changeJSON("c3", owner: "_u2", priority: 1)),
            OutgoingMessage(topic: changes, key: "z2", value: changeJSON("c4", owner: "_u2", priority: 2)),
            OutgoingMessage(topic: changes, key: "junk", value: Data("{\"changeID\": 7}".utf8)),
        ])

        let oncePartition = KeyPartitioner.partition(of: "\(container)/private/_u2", partitions: catalog.partitions)
        let (table, matches, retired) = try await fixture.withRuntime(fixture.runtimeConfiguration([.match])) { runtime in
            let table = try #require(runtime.matchTable)
            let matches = try await fixture.read(catalog.name(TopicCatalog.matches), count: 2, timeout: .seconds(60))
            let retired = try await Self.tombstoned(key("_u2", "once"), on: oncePartition, of: subscriptions, in: fixture)
            return (table, matches, retired)
        }
        let decoded = try matches.map { try Match(matchesValue: #require($0.value)) }
        #expect(Set(decoded.map { "\($0.subscription.subscriptionID)/\($0.change.changeID)" }) == ["urgent/c1", "once/c3"])
        #expect(zip(matches, decoded).allSatisfy { $0.keyString == $1.recipient })
        #expect(decoded.allSatisfy { $0.queryNotificationReason == .recordCreated })
        // The fires-once subscription was retired by a tombstone on its owner's partition; c4 fired nothing.
        #expect(retired, "a tombstone of 'once' on partition \(oncePartition)")
        let deadLetters = try await fixture.read(catalog.name(TopicCatalog.deadLetters), count: 2)
        let records = deadLetters.compactMap(DeadLetter.Record.init)
        #expect(Set(records.map(\.sourceTopic)) == [subscriptions, changes])
        #expect(records.contains { $0.stage == "match.subscriptions" && $0.code == "INVALID_PREDICATE" })
        #expect(records.contains { $0.stage == "match" && $0.code == "UNDECODABLE" })
        // 'urgent' lives on its owner's partition now, whichever partition its key gave it.
        let urgentPartition = KeyPartitioner.partition(of: "\(container)/private/_u1", partitions: catalog.partitions)
        let urgent = try await fixture.readToEnd(subscriptions).filter { $0.keyString == key("_u1", "urgent") }
        #expect(urgent.contains { $0.partition == urgentPartition && $0.value != nil })
        #expect(table.count == 1, "only 'urgent' remains")
        let again = try await fixture.readToEnd(catalog.name(TopicCatalog.matches))
        #expect(again.count == 2, "c2 and c4 fired nothing")
        await producer.close()
    }
}
