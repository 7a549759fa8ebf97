import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Prometheus
import Testing

/// The reader never serves a store built from another cluster or partitioning, and a
/// notification it cannot store fails readiness and counts — on the embedded broker. (And it
/// checkpoints a file store's log beside its writer.)
@Suite("Reader store identity", .timeLimit(.minutes(5)))
struct ReaderStoreIdentityTests {
    private let container = "iCloud.com.example.notes"
    private let signer = try! ChangeTokenSigner(keyString: String(repeating: "ab", count: 32))

    private func notification(_ id: String, sequence: Int64, recipient: String = "_alice") throws -> Data {
        var notification = HeraldNotification(
            notificationID: id, notificationType: .database, containerIdentifier: container, recipient: recipient,
            sequence: sequence, createdAt: 1_795_300_000_000, subscriptionID: "all", subscriptionOwnerUserRecordID: recipient)
        notification.databaseScope = .private
        return try WireCodec().encode(notification)
    }

    private func send(_ fixture: PipelineFixture, _ values: [(key: String, value: Data)]) async throws {
        let producer = try fixture.producer()
        _ = try await producer.send(values.map {
            OutgoingMessage(topic: fixture.catalog.name(TopicCatalog.notifications), key: $0.key, value: $0.value)
        })
        await producer.close()
    }

    private func reader(
        _ fixture: PipelineFixture, store: NotificationStore, readiness: Readiness, partitions: Int32? = nil,
        metrics: PrometheusMetricsFactory? = nil
    ) throws -> ReaderService {
        // As `herald run` on the embedded broker: the identity holds the broker's run (the mock
        // cluster's ID comes from its address, which a cluster made after another was freed can share).
        try ReaderService(
            store: store, context: fixture.context(producer: try fixture.producer(), readiness: readiness, partitions: partitions),
            clusterQualifier: fixture.environment.embeddedRunID.map { "embedded-\($0)" },
            metrics: metrics ?? PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()), onChanges: { _ in })
    }

    /// Runs the reader until `condition` holds (or 30 s pass), then shuts it down.
    private func run(_ reader: ReaderService, in fixture: PipelineFixture, until condition: () async throws -> Bool) async throws -> Bool {
        try await fixture.run([reader]) { try await Wait.until(condition) }
    }

    private func ids(_ store: NotificationStore, _ recipient: String = "_alice") async throws -> [String] {
        try await store.fetch(recipient: recipient, container: container, after: nil, limit: 400).notifications.map(\.notificationID)
    }

    private func temporaryStorePath() throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory.appendingPathComponent("reader.sqlite").path, directory)
    }

    @Test("a store built on cluster A and reopened against cluster B is rebuilt and serves B's notifications")
    func newClusterRebuilds() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = "id\(UUID().uuidString.prefix(6))."
        do {
            let clusterA = try await PipelineFixture(prefix: prefix)
            try await send(clusterA, [("_alice", try notification("a-1", sequence: 1)), ("_alice", try notification("a-2", sequence: 2))])
            let store = try NotificationStore(path: path, tokenSigner: signer)
            let readiness = Readiness()
            let filled = try await run(try reader(clusterA, store: store, readiness: readiness), in: clusterA) {
                try await ids(store) == ["a-1", "a-2"] && readiness.isReady
            }
            #expect(filled)
        }
        let clusterB = try await PipelineFixture(prefix: prefix)
        try await send(clusterB, [("_alice", try notification("b-1", sequence: 1))])
        let store = try NotificationStore(path: path, tokenSigner: signer)
        let readiness = Readiness()
        let rebuilt = try await run(try reader(clusterB, store: store, readiness: readiness), in: clusterB) {
            try await ids(store) == ["b-1"] && readiness.isReady
        }
        #expect(rebuilt, "B's notification 1 is served, A's are gone")
        #expect(try await ids(store) == ["b-1"])
        #expect(readiness.reasons.isEmpty)
        #expect(try await store.identity()?.clusterID != nil)
    }

    @Test("the reader checkpoints a file store's log beside its writer: the database file grows while it runs")
    func fileStoreLogIsCheckpointed() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await PipelineFixture()
        try await send(fixture, (1...60).map { ("_alice", try notification("n-\($0)", sequence: Int64($0))) })
        let store = try NotificationStore(path: path, tokenSigner: signer)
        let fileBytes = { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let before = fileBytes()
        // Only a checkpoint writes pages into the database file; the writer's own is at
        // 4,096 pages of log, far beyond what 60 notifications write.
        let grown = try await run(try reader(fixture, store: store, readiness: Readiness()), in: fixture) {
            try await ids(store).count == 60 && fileBytes() > before + 4 * 4_096
        }
        #expect(grown, "the file grew from \(before) to \(fileBytes()) bytes")
        try store.close()
    }

    @Test("a store built when badges came from compose-state is kept: its rows and counts stay, badges is read from its beginning")
    func badgesUpgradeKeepsStore() async throws {
        let fixture = try await PipelineFixture()
        let catalog = fixture.catalog
        try await send(fixture, [("_alice", try notification("n-1", sequence: 1))])
        let store = try NotificationStore.inMemory(tokenSigner: signer)
        let first = Readiness()
        #expect(try await run(try reader(fixture, store: store, readiness: first), in: fixture) {
            try await ids(store) == ["n-1"] && first.isReady
        })
        // Turn it into a store of the previous Herald: its identity names compose-state where
        // badges is now, and it holds counts it read from there.
        let current = try #require(try await store.identity())
        var topics = current.topics
        let partitions = topics.removeValue(forKey: catalog.name(TopicCatalog.badges))
        #expect(partitions == catalog.partitions)
        topics[catalog.name(TopicCatalog.composeState)] = partitions
        _ = try await store.apply(StoreBatch(
            offsets: [ConsumedOffset(topic: catalog.name(TopicCatalog.composeState), partition: 0, nextOffset: 1)],
            badges: [
                BadgeCount(recipient: "_alice", containerIdentifier: container, badge: 4),
                BadgeCount(recipient: "_bob", containerIdentifier: container, badge: 2),
            ]))
        try await store.record(StoreIdentity(clusterID: current.clusterID, topics: topics))
        // After the upgrade compose writes _bob's new count to badges.
        let count = BadgeCount(recipient: "_bob", containerIdentifier: container, badge: 7)
        let producer = try fixture.producer()
        _ = try await producer.send(OutgoingMessage(
            topic: catalog.name(TopicCatalog.badges), key: count.key, value: try WireCodec().encode(count)))
        await producer.close()
        let second = Readiness()
        #expect(try await run(try reader(fixture, store: store, readiness: second), in: fixture) {
            try await store.badge(recipient: "_bob", container: container) == 7 && second.isReady
        })
        #expect(try await store.badge(recipient: "_alice", container: container) == 4, "kept, not rebuilt to 0")
        #expect(try await ids(store) == ["n-1"])
        #expect(try await store.identity() == current)
    }

    @Test("a store built from fewer partitions is rebuilt and reads every partition from the beginning")
    func partitionCountChangeRebuilds() async throws {
        let fixture = try await PipelineFixture(partitions: 2)
        let producer = try fixture.producer()
        let topic = fixture.catalog.name(TopicCatalog.notifications)
        _ = try await producer.send([
            OutgoingMessage(topic: topic, partition: 0, key: "_alice", value: try notification("p0", sequence: 1)),
            OutgoingMessage(topic: topic, partition: 1, key: "_bob", value: try notification("p1", sequence: 1, recipient: "_bob")),
        ])
        await producer.close()
        let store = try NotificationStore.inMemory(tokenSigner: signer)
        let first = Readiness()
        #expect(try await run(try reader(fixture, store: store, readiness: first, partitions: 1), in: fixture) {
            first.isReady
        })
        #expect(try await ids(store, "_bob").isEmpty, "partition 1 was not read")
        #expect(try await store.identity()?.topics[topic] == 1)

        let second = Readiness()
        #expect(try await run(try reader(fixture, store: store, readiness: second), in: fixture) {
            try await ids(store, "_bob") == ["p1"] && second.isReady
        })
        #expect(try await ids(store) == ["p0"])
        #expect(try await store.identity()?.topics[topic] == 2)
    }

    @Test("a notification that cannot be stored fails readiness with the reason, counts in the metric and is dead-lettered")
    func unstorableNotificationFailsReadiness() async throws {
        let fixture = try await PipelineFixture()
        try await send(fixture, [
            ("_alice", try notification("first", sequence: 1)),
            ("_alice", try notification("second", sequence: 1)),
            ("_alice", Data("{not json".utf8)),
        ])
        let registry = PrometheusCollectorRegistry()
        let store = try NotificationStore.inMemory(tokenSigner: signer)
        let readiness = Readiness()
        let service = try reader(fixture, store: store, readiness: readiness, metrics: PrometheusMetricsFactory(registry: registry))
        let failed = try await run(service, in: fixture) {
            readiness.conditions["reader"] == true && readiness.conditions[ReaderService.storeCondition] == false
                && readiness.reasons[ReaderService.storeCondition]?.contains("reuse a sequence") == true
        }
        #expect(failed)
        #expect(!readiness.isReady)
        #expect(try await ids(store) == ["first"])
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        let metrics = String(decoding: bytes, as: UTF8.self)
        #expect(metrics.contains(#"herald_reader_notifications_rejected_total{reason="sequence_conflict"} 1"#))
        #expect(metrics.contains(#"herald_reader_notifications_rejected_total{reason="undecodable"} 1"#))
        let letters = try await fixture.read(fixture.catalog.name(TopicCatalog.deadLetters), count: 2).compactMap(DeadLetter.Record.init)
        #expect(letters.map(\.code).sorted() == ["SEQUENCE_CONFLICT", "UNDECODABLE"])
        #expect(letters.allSatisfy { $0.stage == "reader" })
    }
}
