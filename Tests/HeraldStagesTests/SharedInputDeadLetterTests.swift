import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// Issue 11's scenario in small: many valid changes with one over the producer's
/// `message.max.bytes` among them, read by both stages that consume `record-changes`, in
/// the process `herald run` builds (`HeraldApp.buildRuntime`).
@Suite("One dead letter per bad change across the match and assets stages", .timeLimit(.minutes(5)))
struct SharedInputDeadLetterTests {
    private let container = "iCloud.com.example.notes"

    private func changeJSON(_ id: Int, title: String = "t") -> Data {
        Data("""
            {"changeID": "c\(id)", "container": "\(container)", "database": "private",
             "zoneID": {"zoneName": "Notes", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "n\(id)",
             "kind": "create", "fields": {"title": {"value": "\(title)", "type": "STRING"}}, "timestamp": 1795300000000}
            """.utf8)
    }

    @Test("200 valid changes flow; the oversize one and the undecodable one each get one dead letter, from match")
    func oneDeadLetterPerBadChange() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let changes = catalog.name(TopicCatalog.recordChanges)
        let subscriptions = catalog.name(TopicCatalog.subscriptions)
        let deadLetters = catalog.name(TopicCatalog.deadLetters)
        let input = try fixture.producer()
        _ = try await input.send(OutgoingMessage(topic: subscriptions, key: "\(container)/private/_u1/all", value: Data("""
            {"subscriptionID": "all", "subscriptionType": "query", "container": "\(container)", "database": "private",
             "ownerRecordName": "_u1", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"},
             "firesOn": ["create"], "notificationInfo": {"alertBody": "changed"}}
            """.utf8)))
        var records = (0..<200).map { OutgoingMessage(topic: changes, key: "z\($0 % 5)", value: changeJSON($0)) }
        records.insert(OutgoingMessage(topic: changes, key: "z1", value: changeJSON(999, title: String(repeating: "x", count: 20_000))), at: 70)
        records.insert(OutgoingMessage(topic: changes, key: "z2", value: Data(#"{"changeID": 7}"#.utf8)), at: 140)
        _ = try await input.send(records)
        await input.close()

        // The match and assets stages as `herald run --stages match,assets --kafka-property
        // message.max.bytes=4096` builds them, inputs limited to 8,000 bytes.
        let environment = KafkaEnvironment(
            brokers: fixture.environment.bootstrapServers, extraProperties: ["message.max.bytes": "4096"], logger: fixture.logger)
        var configuration = fixture.runtimeConfiguration([.match, .assets])
        configuration.maxInputBytes = 8_000
        try await fixture.withRuntime(configuration, environment: environment) { _ in
            let matches = try await fixture.read(catalog.name(TopicCatalog.matches), count: 200, timeout: .seconds(60))
            #expect(matches.count == 200, "every valid change matched")
            try await waitUntilCommitted(
                fixture, group: HeraldStage.assets.groupID(prefix: catalog.prefix), topic: changes, count: 202)
        }
        let letters = try await fixture.readToEnd(deadLetters).compactMap(DeadLetter.Record.init)
        #expect(letters.count == 2, "one dead letter per bad change")
        #expect(letters.allSatisfy { $0.stage == "match" })
        let big = try #require(letters.first { $0.code == "TOO_LARGE" })
        #expect(big.valueForm == .truncated && big.originalSize == changeJSON(999, title: String(repeating: "x", count: 20_000)).count)
        #expect(letters.contains { $0.code == "UNDECODABLE" && $0.valueForm == .complete && $0.isReplayable })
    }

    /// Waits until `group` committed `count` offsets of `topic` (all its input applied).
    private func waitUntilCommitted(_ fixture: PipelineFixture, group: String, topic: String, count: Int64) async throws {
        let committed = try await Wait.value(timeout: .seconds(60), every: .milliseconds(100)) {
            try await fixture.committedOffsets(group: group, topics: [topic]).values.reduce(0, +)
        } until: { $0 >= count }
        #expect(committed == count, "the assets stage consumed every change, the bad ones included")
    }
}
