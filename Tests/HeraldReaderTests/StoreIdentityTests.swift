import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Store identity")
struct StoreIdentityTests {
    private let identity = StoreIdentity(clusterID: "A", topics: ["h.notifications": 6, "h.notification-reads": 6])

    @Test("a store with offsets is rebuilt for another cluster, other topics, another partition count or no record; never when empty or equal")
    func rebuildReasons() {
        #expect(identity.rebuildReason(stored: identity, hasOffsets: true) == nil)
        #expect(identity.rebuildReason(stored: nil, hasOffsets: false) == nil)
        #expect(identity.rebuildReason(stored: StoreIdentity(clusterID: "B", topics: identity.topics), hasOffsets: false) == nil)
        #expect(identity.rebuildReason(stored: nil, hasOffsets: true)?.contains("does not record") == true)
        #expect(identity.rebuildReason(stored: StoreIdentity(clusterID: "B", topics: identity.topics), hasOffsets: true)
            == "it was built from cluster B, the brokers are cluster A")
        #expect(identity.rebuildReason(stored: StoreIdentity(clusterID: "A", topics: ["g.notifications": 6, "g.notification-reads": 6]), hasOffsets: true)?
            .contains("built from topics g.notification-reads,g.notifications") == true)
        #expect(identity.rebuildReason(stored: StoreIdentity(clusterID: "A", topics: ["h.notifications": 3, "h.notification-reads": 6]), hasOffsets: true)
            == "topic h.notifications had 3 partitions when the store was built, now 6")
    }

    @Test("the identity is kept in the file; a rebuild empties rows, reads, badges and offsets and records the new identity")
    func rebuildEmptiesTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("reader.sqlite").path
        do {
            let store = try NotificationStore(path: path, tokenSigner: ReaderFixtures.signer())
            #expect(try await store.identity() == nil)
            try await store.record(identity)
            var batch = StoreBatch()
            batch.notifications = try [ReaderFixtures.encoded("_alice", 1), ReaderFixtures.encoded("_alice", 2)]
            batch.reads = [ReaderFixtures.read("_alice", ["n-_alice-\(ReaderFixtures.container)-1"])]
            batch.offsets = [ConsumedOffset(topic: "h.notifications", partition: 0, nextOffset: 2)]
            _ = try await store.apply(batch)
            try store.close()
        }
        let store = try NotificationStore(path: path, tokenSigner: ReaderFixtures.signer())
        #expect(try await store.identity() == identity)
        #expect(try await store.offsets().count == 1)
        let next = StoreIdentity(clusterID: "B", topics: identity.topics)
        try await store.rebuild(as: next)
        #expect(try await store.identity() == next)
        #expect(try await store.offsets().isEmpty)
        #expect(try await store.fetch(recipient: "_alice", container: ReaderFixtures.container, after: nil).notifications.isEmpty)
        // Sequence 1 is free again: the rebuilt store takes the new cluster's notification 1.
        var batch = StoreBatch()
        batch.notifications = [try ReaderFixtures.encoded("_alice", 1, id: "new-1")]
        let changes = try await store.apply(batch)
        #expect(changes.insertedCount == 1 && changes.sequenceConflicts.isEmpty)
    }

    @Test("a change token from a store built on another cluster is CHANGE_TOKEN_EXPIRED, never a silent skip of the new stream")
    func tokensOfAnotherClusterExpire() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-epoch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("reader.sqlite").path
        let container = ReaderFixtures.container
        let oldToken: ChangeToken
        do {
            let store = try NotificationStore(path: path, tokenSigner: ReaderFixtures.signer())
            try await store.record(identity)
            var batch = StoreBatch()
            batch.notifications = try (1...5).map { try ReaderFixtures.encoded("_alice", $0) }
            _ = try await store.apply(batch)
            oldToken = try await store.fetch(recipient: "_alice", container: container, after: nil).serverChangeToken
            try store.close()
        }
        // Reopened on the same cluster: the token still resumes (the epoch is read from the file).
        let store = try NotificationStore(path: path, tokenSigner: ReaderFixtures.signer())
        #expect(try await store.fetch(recipient: "_alice", container: container, after: oldToken).notifications.isEmpty)
        // Rebuilt from another cluster, whose stream restarts at 1: the old position means nothing.
        try await store.rebuild(as: StoreIdentity(clusterID: "B", topics: identity.topics))
        var batch = StoreBatch()
        batch.notifications = [try ReaderFixtures.encoded("_alice", 1, id: "b-1")]
        _ = try await store.apply(batch)
        let error = await ReaderFixtures.asyncReaderError {
            _ = try await store.fetch(recipient: "_alice", container: container, after: oldToken)
        }
        #expect(error?.serverErrorCode == "CHANGE_TOKEN_EXPIRED")
        let fresh = try await store.fetch(recipient: "_alice", container: container, after: nil)
        #expect(fresh.notifications.count == 1)
        #expect(try await store.fetch(recipient: "_alice", container: container, after: fresh.serverChangeToken).notifications.isEmpty)
    }
}
