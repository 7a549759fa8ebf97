import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel
import HeraldPipeline
import ServiceLifecycle
import Synchronization
import Testing

/// The asset ledger stage on the embedded broker, with a virtual clock.
@Suite("Asset ledger stage", .timeLimit(.minutes(2)))
struct AssetLedgerStageTests {
    /// A clock the test moves by hand, milliseconds since 1970.
    final class VirtualClock: Sendable {
        private let milliseconds: Atomic<Int64>

        init(_ start: Int64) { milliseconds = Atomic(start) }

        func now() -> Int64 { milliseconds.load(ordering: .relaxed) }

        func advance(by step: Int64) { _ = milliseconds.add(step, ordering: .relaxed) }
    }

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
            processor: processor, consumer: try fixture.consumer(group: group), producer: producer, logger: fixture.logger)
    }

    private func processor(_ fixture: PipelineFixture, clock: VirtualClock) -> AssetLedgerProcessor {
        var configuration = AssetLedgerProcessor.Configuration()
        configuration.gracePeriod = Self.grace
        configuration.tickInterval = .milliseconds(50)
        return AssetLedgerProcessor(
            topics: .init(fixture.catalog),
            changelog: ChangelogReader { try fixture.consumer(group: "restore-\(UUID().uuidString)") },
            configuration: configuration, now: { clock.now() })
    }

    /// Runs `body` while the services run, then shuts them down gracefully.
    private func run(_ services: [any Service], _ fixture: PipelineFixture, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(services: services, logger: fixture.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    private func waitFor(_ what: String, timeout: Duration = .seconds(15), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out waiting for \(what)"); return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Whether `group` has committed offsets at the end of every partition of the stage's inputs.
    private func caughtUp(_ fixture: PipelineFixture, group: String) async throws -> Bool {
        let admin = try KafkaAdmin(configuration: fixture.environment.client, logger: fixture.logger)
        let partitions = HeraldStage.assets.inputTopics.map(fixture.catalog.name).flatMap { topic in
            (0..<fixture.catalog.partitions).map { TopicPartition(topic, $0) }
        }
        do {
            let committed = try await admin.committedOffsets(group: group, partitions: partitions)
            var done = true
            for partition in partitions {
                let end = try await admin.watermarks(partition).high
                if end > 0, committed[partition] != end { done = false }
            }
            await admin.close()
            return done
        } catch {
            await admin.close()
            throw error
        }
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

        let first = processor(fixture, clock: clock)
        var statsAfterCollection = AssetStats()
        try await run([try runner(fixture, first, group: "assets-1", producer: producer)], fixture) {
            try await waitFor("X released and Y referenced again") {
                first.entry(for: "X")?.records == [] && first.entry(for: "Y")?.records == ["\(zoneKey("Photos"))/d"]
            }
            #expect(try await fixture.read(gc, count: 1, timeout: .milliseconds(500)).isEmpty, "nothing is due yet")
            clock.advance(by: 3_600_000)
            let collected = try await fixture.read(gc, count: 1)
            let collection = try WireCodec().decode(AssetCollection.self, from: #require(collected.first?.value))
            #expect(collection == AssetCollection(fileChecksum: "X", size: 100, unreferencedSince: Self.start + 5))
            #expect(collected.first?.keyString == "X")
            clock.advance(by: 3_600_000)
            try await waitFor("the ledger to drop X") { first.stats.assets == 1 }
            try await Task.sleep(for: .milliseconds(300))
            statsAfterCollection = first.stats
        }
        #expect(statsAfterCollection.storedBytes == 50 && statsAfterCollection.referencedBytes == 50)
        // The undecodable change was consumed (every input was applied above) but not
        // dead-lettered here: the match stage owns the validation of record-changes.
        let deadLetters = try await fixture.readToEnd(catalog.name(TopicCatalog.deadLetters))
        #expect(deadLetters.isEmpty, "one dead letter per bad change, written by the match stage only")
        let references = try await fixture.read(refs, count: 8, timeout: .seconds(3))
        #expect(references.count == 7)

        // A new owner (another consumer group) restores from the changelogs and replays every input from the start.
        let second = processor(fixture, clock: clock)
        try await run([try runner(fixture, second, group: "assets-2", producer: producer)], fixture) {
            try await waitFor("the replay to be consumed", timeout: .seconds(20)) { try await caughtUp(fixture, group: "assets-2") }
            clock.advance(by: 10 * 3_600_000)
            try await Task.sleep(for: .milliseconds(300))
            #expect(second.stats == statsAfterCollection)
        }
        #expect(try await fixture.readToEnd(gc).count == 1, "X is collected once; Y never")
        #expect(try await fixture.readToEnd(refs).count == 7, "the replay published no reference again")
    }
}
