import Foundation
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import HeraldTestSupport
import Testing

/// The API's subscription directory follows the `subscriptions` topic into SQLite, on the
/// embedded broker: it files records, replacements and tombstones; it resumes from the
/// offsets it saved instead of reading the topic again; it rebuilds a store filed from
/// another cluster; and it dead-letters what it cannot file without stopping.
@Suite("Subscription directory loader", .timeLimit(.minutes(5)))
struct SubscriptionDirectoryLoaderTests {
    typealias F = SubscriptionFixtures

    private static func note(_ id: String, owner: String, priority: Int) -> Subscription {
        Subscription(
            subscriptionID: id, subscriptionType: .query, container: F.container, database: .private, ownerRecordName: owner,
            query: SubscriptionQuery(recordType: "Note", predicate: "priority > \(priority)"), firesOn: [.create])
    }

    /// Sends records (`nil`: a tombstone of the subscription's key) to their placement partition.
    private func send(_ fixture: PipelineFixture, _ records: [(subscription: Subscription, tombstone: Bool)]) async throws {
        let producer = try fixture.producer()
        let placement = SubscriptionPlacement(partitions: fixture.catalog.partitions)
        _ = try await producer.send(try records.map { subscription, tombstone in
            OutgoingMessage(
                topic: fixture.catalog.name(TopicCatalog.subscriptions), partition: placement.partition(of: subscription),
                key: subscription.partitionKey, value: tombstone ? nil : try WireCodec().encode(subscription))
        })
        await producer.close()
    }

    private func sendRaw(_ fixture: PipelineFixture, key: String, value: String) async throws {
        let producer = try fixture.producer()
        _ = try await producer.send([OutgoingMessage(topic: fixture.catalog.name(TopicCatalog.subscriptions), key: key, value: Data(value.utf8))])
        await producer.close()
    }

    /// A loader as `herald run` makes it on the embedded broker: the store's identity holds the
    /// broker's run (the mock cluster's ID comes from its address, which a cluster made after
    /// another was freed can share — this test failed so in CI).
    private func loader(_ fixture: PipelineFixture, _ directory: StoredSubscriptionDirectory, readiness: Readiness) throws -> SubscriptionDirectoryLoader {
        try SubscriptionDirectoryLoader(
            directory: directory, context: fixture.context(producer: try fixture.producer(), readiness: readiness),
            clusterQualifier: fixture.environment.embeddedRunID.map { "embedded-\($0)" })
    }

    private func temporaryStorePath() throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory.appendingPathComponent("subscriptions.sqlite").path, directory)
    }

    private func ids(_ directory: StoredSubscriptionDirectory, owner: String) throws -> [String] {
        try directory.subscriptions(container: F.container, database: .private, owner: owner).map(\.subscriptionID)
    }

    @Test("files records, replacements and tombstones; ready once caught up; lists and looks up")
    func filesTheTopic() async throws {
        let fixture = try await PipelineFixture()
        let (a, b, c) = (Self.note("a", owner: "_u1", priority: 1), Self.note("b", owner: "_u1", priority: 2), Self.note("c", owner: "_u2", priority: 3))
        var replaced = b
        replaced.notificationInfo.alertBody = "replaced"
        try await send(fixture, [(a, false), (b, false), (c, false), (replaced, false), (a, true)])
        let directory = StoredSubscriptionDirectory(store: try SubscriptionStore.inMemory(), partitions: fixture.catalog.partitions)
        let readiness = Readiness()
        let loader = try loader(fixture, directory, readiness: readiness)
        let ready = try await fixture.run([loader]) {
            try await Wait.until { directory.isReady && readiness.isReady }
        }
        #expect(ready)
        #expect(try ids(directory, owner: "_u1") == ["b"])
        #expect(try directory.subscription(forKey: b.partitionKey) == replaced)
        #expect(try directory.subscription(forKey: a.partitionKey) == nil)
        #expect(try ids(directory, owner: "_u2") == ["c"])
        #expect(loader.recordsRead == 5)
    }

    @Test("a restart resumes from the saved offsets: it reads only what was written since")
    func restartResumes() async throws {
        let fixture = try await PipelineFixture()
        let (path, folder) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = (0..<20).map { Self.note("s\($0)", owner: "_u\($0 % 3)", priority: $0) }
        try await send(fixture, first.map { ($0, false) })
        do {
            let directory = StoredSubscriptionDirectory(store: try SubscriptionStore(path: path), partitions: fixture.catalog.partitions)
            let loader = try loader(fixture, directory, readiness: Readiness())
            #expect(try await fixture.run([loader]) { try await Wait.until { try directory.isReady && directory.count() == 20 } })
            #expect(loader.recordsRead == 20)
            try directory.store.close()
        }
        try await send(fixture, [(Self.note("later", owner: "_u1", priority: 99), false), (first[0], true)])
        let directory = StoredSubscriptionDirectory(store: try SubscriptionStore(path: path), partitions: fixture.catalog.partitions)
        let loader = try loader(fixture, directory, readiness: Readiness())
        let caughtUp = try await fixture.run([loader]) {
            try await Wait.until { directory.isReady && loader.recordsRead == 2 }
        }
        #expect(caughtUp)
        #expect(loader.recordsRead == 2, "the 20 records filed before the restart are not read again")
        #expect(try directory.count() == 20)
        #expect(try directory.subscription(forKey: first[0].partitionKey) == nil)
        #expect(try ids(directory, owner: "_u1").contains("later"))
    }

    @Test("a store filed from another cluster is rebuilt from the beginning of the topic")
    func otherClusterRebuilds() async throws {
        let (path, folder) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = "dir\(UUID().uuidString.prefix(6))."
        do {
            let clusterA = try await PipelineFixture(prefix: prefix)
            try await send(clusterA, [(Self.note("from-a", owner: "_u1", priority: 1), false)])
            let directory = StoredSubscriptionDirectory(store: try SubscriptionStore(path: path), partitions: clusterA.catalog.partitions)
            let loader = try loader(clusterA, directory, readiness: Readiness())
            #expect(try await clusterA.run([loader]) { try await Wait.until { try directory.isReady && directory.count() == 1 } })
            try directory.store.close()
        }
        let clusterB = try await PipelineFixture(prefix: prefix)
        try await send(clusterB, [(Self.note("from-b", owner: "_u1", priority: 2), false)])
        let store = try SubscriptionStore(path: path)
        #expect(try await store.identity() != nil)
        let directory = StoredSubscriptionDirectory(store: store, partitions: clusterB.catalog.partitions)
        let loader = try loader(clusterB, directory, readiness: Readiness())
        #expect(try await clusterB.run([loader]) { try await Wait.until { directory.isReady } })
        #expect(try ids(directory, owner: "_u1") == ["from-b"], "A's subscription is gone, B's filed")
        #expect(clusterB.recentLog.contains("rebuilding the subscription directory"))
    }

    @Test("undecodable, invalid and duplicate records are dead-lettered once; the records after them are filed")
    func malformedRecordsSkipped() async throws {
        let fixture = try await PipelineFixture()
        let good = Self.note("good", owner: "_u1", priority: 1)
        var duplicate = good
        duplicate.subscriptionID = "copy"
        try await send(fixture, [(good, false), (duplicate, false)])
        try await sendRaw(fixture, key: "\(F.container)/private/_u1/junk", value: "{not json")
        try await sendRaw(fixture, key: "\(F.container)/private/_u1/other", value: String(decoding: try WireCodec().encode(good), as: UTF8.self))
        let after = Self.note("after", owner: "_u1", priority: 5)
        try await send(fixture, [(after, false)])
        let directory = StoredSubscriptionDirectory(store: try SubscriptionStore.inMemory(), partitions: fixture.catalog.partitions)
        let loader = try loader(fixture, directory, readiness: Readiness())
        let deadLetters = fixture.catalog.name(TopicCatalog.deadLetters)
        let letters = try await fixture.run([loader]) {
            _ = try await Wait.until { directory.isReady }
            return try await fixture.read(deadLetters, count: 3, timeout: .seconds(60)).compactMap(DeadLetter.Record.init)
        }
        #expect(try ids(directory, owner: "_u1") == ["after", "good"])
        #expect(letters.count == 3)
        #expect(letters.allSatisfy { $0.stage == "api.subscriptions" })
        #expect(Set(letters.map(\.code)) == ["DUPLICATE_SUBSCRIPTION", "UNDECODABLE", "INVALID"])
    }
}
