import Foundation
import HeraldModel
import HeraldTestSupport
import Synchronization
import Testing

@testable import HeraldReader

@Suite("Store files: restart and concurrency", .timeLimit(.minutes(5)))
struct StorePersistenceTests {
    typealias F = ReaderFixtures

    @Test("closing and reopening the file resumes with the same rows, reads, marks and offsets")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let retention = RetentionPolicy(maxCount: 5, maxAge: .seconds(86_400))
        let before: (notifications: [HeraldNotification], token: ChangeToken, pages: Int)
        do {
            let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer(), retention: retention)
            _ = try await store.apply(StoreBatch(
                notifications: (0..<8).map { F.notification("_u1", $0) }, reads: [F.read("_u1", ["n-_u1-\(F.container)-6"])],
                offsets: [ConsumedOffset(topic: "herald.notifications", partition: 2, nextOffset: 8)]))
            before = try await F.fetchAll(store, "_u1", limit: 2)
            try store.close()
        }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer(), retention: retention)
        #expect(try await store.offsets() == [ConsumedOffset(topic: "herald.notifications", partition: 2, nextOffset: 8)])
        let after = try await F.fetchAll(store, "_u1", limit: 2)
        #expect(after.notifications == before.notifications)
        #expect(after.notifications.map(\.sequence) == [3, 4, 5, 6, 7])
        #expect(after.notifications[3].notificationType == .readNotification)
        #expect(after.token == before.token)
        // The replay a restarted consumer would do changes nothing.
        let replay = try await store.apply(StoreBatch(notifications: (0..<8).map { F.notification("_u1", $0) }))
        #expect(replay.insertedCount == 0 && replay.duplicateCount == 8)
        let expired = await F.asyncReaderError {
            try await store.fetchEncoded(recipient: "_u1", container: F.container, after: store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: 1))
        }
        #expect(expired?.code == .changeTokenExpired)
    }

    @Test("opening a path in a missing directory is an internal error naming the path")
    func badPath() async throws {
        let error = F.readerError { () throws(ReaderError) in
            try NotificationStore(path: "/nonexistent-herald-dir/x/reader.sqlite", tokenSigner: F.signer())
        }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
        #expect(error?.reason.contains("/nonexistent-herald-dir/x/reader.sqlite") == true)
    }

    @Test("a closed store reports internal errors instead of crashing")
    func closed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        try store.close()
        let error = await F.asyncReaderError { try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil) }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
        #expect(error?.operation == "fetch")
    }

    @Test("a fetch completes while a write transaction is open and does not see its rows (WAL)")
    func readDuringWrite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)]))
        let inTransaction = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let prepared = try PreparedBatch(StoreBatch(notifications: [F.notification("_u1", 1)]))
        // Through the store's own write path (on GRDB's writer queue), which also forgets the
        // pages fetches kept, as every write does.
        let writer = Task {
            try await store.writing("apply") { db in
                var writer = BatchWriter(db: db, retention: store.retention)
                _ = try writer.apply(prepared)
                inTransaction.signal()
                _ = readerDone.wait(timeout: .now() + 20)
            }
        }
        inTransaction.wait()
        let during = try await store.fetch(recipient: "_u1", container: F.container, after: nil)
        readerDone.signal()
        #expect(during.notifications.map(\.sequence) == [0])
        try await writer.value
        #expect(try await store.fetch(recipient: "_u1", container: F.container, after: nil).notifications.map(\.sequence) == [0, 1])
    }

    @Test("readers see whole batches, in order, while a writer applies batches")
    func concurrentReads() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(
            path: directory.databasePath, tokenSigner: F.signer(),
            retention: RetentionPolicy(maxCount: 100_000, maxAge: .seconds(86_400)))
        let batches = 30
        let perBatch = 10
        let total = batches * perBatch
        let counters = Counters()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for batch in 0..<batches {
                    // Interleave for sure: wait until readers have fetched since the last batch.
                    while counters.fetches.load(ordering: .relaxed) < batch * 2 { await Task.yield() }
                    let sequences = (batch * perBatch)..<((batch + 1) * perBatch)
                    _ = try await store.apply(StoreBatch(
                        notifications: sequences.map { F.notification("_u1", Int64($0)) },
                        offsets: [ConsumedOffset(topic: "n", partition: 0, nextOffset: Int64(sequences.upperBound))]))
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    while last < total {
                        let count = try await Self.countAll(store)
                        #expect(count % perBatch == 0, "a fetch saw part of a batch")
                        #expect(count >= last, "a later fetch saw less")
                        if count > 0 && count < total { counters.intermediate.add(1, ordering: .relaxed) }
                        last = count
                        counters.fetches.add(1, ordering: .relaxed)
                        // A file store's fetch reads on this thread without suspending: let
                        // the writer have a thread of the (small) cooperative pool.
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counters.intermediate.load(ordering: .relaxed) > 0)
        #expect(try await store.offsets() == [ConsumedOffset(topic: "n", partition: 0, nextOffset: Int64(total))])
        #expect(try await store.stats().notifications == total)
    }

    /// Pages through the whole stream (pages of 60: several snapshots), checking that
    /// what it sees is a gapless prefix.
    static func countAll(_ store: NotificationStore) async throws -> Int {
        var token: ChangeToken?
        var sequences: [Int64] = []
        while true {
            let page = try await store.fetch(recipient: "_u1", container: F.container, after: token, limit: 60)
            sequences += page.notifications.map(\.sequence)
            token = page.serverChangeToken
            if !page.moreComing { break }
        }
        #expect(sequences == (0..<Int64(sequences.count)).map { $0 })
        return sequences.count
    }
}

/// Counters shared by the concurrent tasks of a test.
private final class Counters: Sendable {
    let fetches = Atomic<Int>(0)
    let intermediate = Atomic<Int>(0)
}
