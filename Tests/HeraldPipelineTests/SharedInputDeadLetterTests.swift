import Foundation
import HeraldKafka
import HeraldModel
import HeraldPipeline
import HeraldTestSupport
import ServiceLifecycle
import Testing

/// Issue 11's scenario in small: many valid changes with one over the producer's
/// `message.max.bytes` among them, read by both stages that consume `record-changes`.
@Suite("One dead letter per bad change across the match and assets stages", .timeLimit(.minutes(2)))
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
        _ = try await input.send(OutgoingMessage(topic: subscriptions, key: "\(container)/private/all", value: Data("""
            {"subscriptionID": "all", "subscriptionType": "query", "container": "\(container)", "database": "private",
             "ownerRecordName": "_u1", "query": {"recordType": "Note", "predicate": "TRUEPREDICATE"},
             "firesOn": ["create"], "notificationInfo": {"alertBody": "changed"}}
            """.utf8)))
        var records = (0..<200).map { OutgoingMessage(topic: changes, key: "z\($0 % 5)", value: changeJSON($0)) }
        records.insert(OutgoingMessage(topic: changes, key: "z1", value: changeJSON(999, title: String(repeating: "x", count: 20_000))), at: 70)
        records.insert(OutgoingMessage(topic: changes, key: "z2", value: Data(#"{"changeID": 7}"#.utf8)), at: 140)
        _ = try await input.send(records)
        await input.close()

        var settings = fixture.environment.producerConfiguration(clientID: "stages")
        settings.linger = .milliseconds(1)
        settings.maxMessageBytes = 4_096
        let producer = try KafkaProducer(configuration: settings, logger: fixture.logger)
        let table = SubscriptionTable()
        let loader = SubscriptionTableLoader(
            table: table, consumer: try fixture.consumer(group: "table"), producer: producer, topic: subscriptions,
            partitions: catalog.partitions, deadLetterTopic: deadLetters, readiness: nil, logger: fixture.logger)
        var match = MatchProcessor(table: table, matchesTopic: catalog.name(TopicCatalog.matches), subscriptionsTopic: subscriptions)
        match.maxChangeBytes = 8_000
        var assetSettings = AssetLedgerProcessor.Configuration()
        assetSettings.maxInputBytes = 8_000
        let assets = AssetLedgerProcessor(
            topics: .init(catalog), changelog: ChangelogReader { try fixture.consumer(group: "restore-\(UUID().uuidString)") },
            configuration: assetSettings)
        let services: [any Service] = [
            loader,
            StageRunner(
                configuration: StageConfiguration(name: "match", inputTopics: [changes], deadLetterTopic: deadLetters),
                processor: match, consumer: try fixture.consumer(group: "match"), producer: producer, logger: fixture.logger),
            StageRunner(
                configuration: StageConfiguration(
                    name: "assets", inputTopics: HeraldStage.assets.inputTopics.map(catalog.name), deadLetterTopic: deadLetters),
                processor: assets, consumer: try fixture.consumer(group: "assets"), producer: producer, logger: fixture.logger),
        ]
        try await fixture.run(services) {
            let matches = try await fixture.read(catalog.name(TopicCatalog.matches), count: 200)
            #expect(matches.count == 200, "every valid change matched")
            try await waitUntilCommitted(fixture, group: "assets", topic: changes, count: 202)
        }
        await producer.close()
        let letters = try await fixture.readToEnd(deadLetters).compactMap(DeadLetter.Record.init)
        #expect(letters.count == 2, "one dead letter per bad change")
        #expect(letters.allSatisfy { $0.stage == "match" })
        let big = try #require(letters.first { $0.code == "TOO_LARGE" })
        #expect(big.valueForm == .truncated && big.originalSize == changeJSON(999, title: String(repeating: "x", count: 20_000)).count)
        #expect(letters.contains { $0.code == "UNDECODABLE" && $0.valueForm == .complete && $0.isReplayable })
    }

    /// Waits until `group` committed `count` offsets of `topic` (all its input applied).
    private func waitUntilCommitted(_ fixture: PipelineFixture, group: String, topic: String, count: Int64) async throws {
        let committed = try await Wait.value(every: .milliseconds(100)) {
            try await fixture.committedOffsets(group: group, topics: [topic]).values.reduce(0, +)
        } until: { $0 >= count }
        #expect(committed == count, "the assets stage consumed every change, the bad ones included")
    }
}
