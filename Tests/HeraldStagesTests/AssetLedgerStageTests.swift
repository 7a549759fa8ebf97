import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Testing

/// The asset ledger stage on the embedded broker, with a virtual clock.
@Suite("Asset ledger stage", .timeLimit(.minutes(5)))
struct AssetLedgerStageTests {
    private static let start: Int64 = 1_795_300_000_000
    private static let grace = Duration.seconds(3_600)

    private func change(_ record: String, zone: String, _ kind: String, asset: (String, Int)?, at offset: Int64) -> Data {
        let fields = asset.map { #""photo": {"value": {"fileChecksum": "\#($0.0)", "size": \#($0.1)}, "type": "ASSETID"}, "# } ?? ""
        return Data("""
            {"changeID": "\(record)-\(offset)", "container": "iCloud.com.example.notes", "database": "private",
             "zoneID": {"zoneName": "\(zone)", "ownerRecordName": "_u1"}, "recordType": "Note", "recordName": "\(record)",
             "kind": "\(kind)", "fields": {\(fields)"title": {"value": "t", "type": "STRING"}}, "timestamp": \(Self.start + offset)}
            """.utf8)
    }

    private func runner(_ fixture: PipelineFixture, _ processor: AssetLedgerProcessor, group: String, producer: KafkaProducer) throws -> StageRunner<AssetLedgerProcessor> {
        let catalog = fixture.catalog
        return StageRunner(
            configuration: StageConfiguration(
                name: "assets", inputTopics: HeraldStage.assets.inputTopics.map(catalog.name),
                deadLetterTopic: catalog.name(TopicCatalog.deadLetters)),
            processor: processor, consumer: try fixture.consumer(group: group), context: fixture.context(producer: producer))
    }

    private func processor(_ fixture: PipelineFixture, clock: VirtualClock, producer: KafkaProducer) -> AssetLedgerProcessor {
        var configuration = AssetLedgerProcessor.Configuration()
        configuration.gracePeriod = Self.grace
        configuration.tickInterval = .milliseconds(50)
        return AssetLedgerProcessor(
            context: fixture.context(producer: producer, clock: { clock.now }), configuration: configuration)
    }

    private func waitFor(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
        if try await !Wait.until(timeout: timeout, condition) { Issue.record("timed out waiting for \(what)") }
    }

    @Test("one collection after the grace period, none for a file referenced again, and a restart that replays every input counts nothing twice")
    func graceCollectionAndReplay() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        let clock = VirtualClock(Self.start + 1_000)
        let producer = try fixture.producer()
        let changes = catalog.name(TopicCatalog.recordChanges)
        let zoneKey = { (zone: String) in "iCloud.com.example.notes/private/_u1/\(zone)" }
        let inputs: [(String, Data)] = [
            ("Notes", change("a", zone: "Notes", "create", asset: ("X", 100), at: 1)),
            ("Notes", change("b", zone: "Notes", "create", asset: ("X", 100), at: 2)),
            ("Photos", change("c", zone: "Photos", "create", asset: ("Y", 50), at: 3)),
            ("Notes", change("a", zone: "Notes", "delete", asset: ("X", 100), at: 4)),
            ("Notes", change("b", zone: "Notes", "update", asset: nil, at: 5)),
            ("Photos", change("c", zone: "Photos", "delete", asset: ("Y", 50), at: 6)),
            ("Photos", change("d", zone: "Photos", "create", asset: ("Y", 50), at: 7)),
            ("Photos", Data(#"{"changeID": 7}"#.utf8)),
        ]
        _ = try await producer.send(inputs.map { OutgoingMessage(topic: changes, key: zoneKey($0.0), value: $0.1) })
        let gc = catalog.name(TopicCatalog.assetCollection)
        let refs = catalog.name(TopicCatalog.assetReferences)

        let first = processor(fixture, clock: clock, producer: producer)
        var statsAfterCollection = AssetStats()
        try await fixture.run([try runner(fixture, first, group: "assets-1", producer: producer)]) {
            try await waitFor("X released and Y referenced again") {
                first.entry(for: "X")?.records == [] && first.entry(for: "Y")?.records == ["\(zoneKey("Photos"))/d"]
            }
            // Two more ticks: the first saw the time now and finished before the second began.
            #expect(try await clock.waitForReads(2), "two more ticks")
            #expect(try await fixture.readToEnd(gc).isEmpty, "nothing is due yet")
            clock.advance(by: 3_600_000)
            let collected = try await fixture.read(gc, count: 1)
            let collection = try WireCodec().decode(AssetCollection.self, from: #require(collected.first?.value))
            #expect(collection == AssetCollection(fileChecksum: "X", size: 100, unreferencedSince: Self.start + 5))
            #expect(collected.first?.keyString == "X")
            clock.advance(by: 3_600_000)
            try await waitFor("the ledger to drop X") { first.stats.assets == 1 }
            #expect(try await clock.waitForReads(2), "two more ticks")
            statsAfterCollection = first.stats
        }
        #expect(statsAfterCollection.storedBytes == 50 && statsAfterCollection.referencedBytes == 50)
        // The undecodable change was consumed (every input was applied above) but not
        // dead-lettered here: the match stage owns the validation of record-changes.
        let deadLetters = try await fixture.readToEnd(catalog.name(TopicCatalog.deadLetters))
        #expect(deadLetters.isEmpty, "one dead letter per bad change, written by the match stage only")
        let references = try await fixture.readToEnd(refs)
        #expect(references.count == 7)

        // A new owner (another consumer group) restores from the changelogs and replays every input from the start.
        let second = processor(fixture, clock: clock, producer: producer)
        try await fixture.run([try runner(fixture, second, group: "assets-2", producer: producer)]) {
            try await waitFor("the replay to be consumed") {
                try await fixture.waitUntilCommitted(group: "assets-2", HeraldStage.assets.inputTopics.map(catalog.name), timeout: .seconds(20))
            }
            clock.advance(by: 10 * 3_600_000)
            #expect(try await clock.waitForReads(2), "two ticks after the move")
            #expect(second.stats == statsAfterCollection)
        }
        #expect(try await fixture.readToEnd(gc).count == 1, "X is collected once; Y never")
        #expect(try await fixture.readToEnd(refs).count == 7, "the replay published no reference again")
    }

    @Test("applied offsets of the old form (record-changes#N) restore without counting twice; the first new ones delete the old key")
    func upgradeFromOldAppliedOffsets() async throws {
        let fixture = try await PipelineFixture()
        let topics = fixture.catalog.names
        let (changes, refs, states) = (topics.recordChanges, topics.assetReferences, topics.assetRecords)
        let inputTopics = [changes, refs]
        let producer = try fixture.producer()
        let clock = VirtualClock(Self.start + 1_000)
        let zone = "iCloud.com.example.notes/private/_u1/Notes"
        // "a" refers to X and is deleted: its state is a tombstone, so only the applied
        // offsets tell its replayed create from a new one.
        _ = try await producer.send([
            change("a", zone: "Notes", "create", asset: ("X", 100), at: 1),
            change("a", zone: "Notes", "delete", asset: ("X", 100), at: 2),
            change("b", zone: "Notes", "create", asset: ("Y", 50), at: 3),
        ].map { OutgoingMessage(topic: changes, key: zone, value: $0) })

        let first = processor(fixture, clock: clock, producer: producer)
        var statsBefore = AssetStats()
        try await fixture.run([try runner(fixture, first, group: "assets-1", producer: producer)]) { () async throws in
            #expect(try await fixture.read(refs, count: 3).count == 3)
            #expect(try await fixture.waitUntilCommitted(group: "assets-1", inputTopics))
            statsBefore = first.stats
        }

        // Rewrite the changelog as the ledger wrote it before: each applied offset under its
        // old key, with the old value, and the new key deleted.
        var rewritten: [OutgoingMessage] = []
        var oldKeys: [Int32: String] = [:]
        for message in latestByKey(try await fixture.readToEnd(states)) {
            guard let key = message.keyString, !key.contains("/"), let value = message.value else { continue }
            let applied = try WireCodec().decode(AppliedOffsets.self, from: value)
            let offset = try #require(applied.bySource[key])
            let input = key.hasPrefix(changes) ? "record-changes" : "asset-refs"
            let oldKey = "\(input)#\(message.partition)"
            if input == "record-changes" { oldKeys[message.partition] = oldKey }
            rewritten.append(OutgoingMessage(topic: states, partition: message.partition, key: key, value: nil))
            rewritten.append(OutgoingMessage(
                topic: states, partition: message.partition, key: oldKey,
                value: Data(#"{"input": "\#(input)", "partition": \#(message.partition), "offset": \#(offset)}"#.utf8)))
        }
        #expect(oldKeys.count == 1, "one record-changes partition holds the zone")
        #expect(rewritten.count >= 4, "applied offsets of both inputs")
        _ = try await producer.send(rewritten)

        // A new owner restores from the old form and replays every input: nothing is counted again.
        let second = processor(fixture, clock: clock, producer: producer)
        try await fixture.run([try runner(fixture, second, group: "assets-2", producer: producer)]) { () async throws in
            #expect(try await fixture.waitUntilCommitted(group: "assets-2", inputTopics))
            #expect(second.stats == statsBefore)
            #expect(try await fixture.readToEnd(refs).count == 3, "the replay published no reference again")
            // A new change of the same zone writes the new form and deletes the old key.
            _ = try await producer.send(OutgoingMessage(
                topic: changes, key: zone, value: change("c", zone: "Notes", "create", asset: ("Z", 10), at: 4)))
            #expect(try await fixture.read(refs, count: 4).count == 4)
            #expect(try await fixture.waitUntilCommitted(group: "assets-2", inputTopics))
        }
        let (partition, oldKey) = try #require(oldKeys.first)
        let latest = latestByKey(try await fixture.readToEnd(states)).filter { $0.partition == partition }
        #expect(latest.contains { $0.keyString == oldKey && $0.value == nil }, "the old key is deleted")
        let newKey = InputPosition.source(topic: changes, partition: partition)
        let applied = try #require(latest.first { $0.keyString == newKey }?.value)
        #expect(try WireCodec().decode(AppliedOffsets.self, from: applied).bySource.keys.sorted() == [newKey])
    }

    /// The last message of each key, per partition (a compacted topic as its readers see it).
    private func latestByKey(_ messages: [ConsumedMessage]) -> [ConsumedMessage] {
        var latest: [String: ConsumedMessage] = [:]
        for message in messages.sorted(by: { $0.offset < $1.offset }) {
            latest["\(message.partition)/\(message.keyString ?? "")"] = message
        }
        return latest.values.sorted { ($0.partition, $0.offset) < ($1.partition, $1.offset) }
    }
}
