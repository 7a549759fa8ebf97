import Foundation
import HeraldModel
import Testing

@testable import HeraldReader

@Suite("Checkpoints of the store's log beside the writer", .timeLimit(.minutes(5)))
struct WALCheckpointerTests {
    typealias F = ReaderFixtures

    @Test("the writer lets the log grow past SQLite's 1,000 pages; a checkpoint copies all of it, and the log starts over")
    func checkpointTakesOverFromTheWriter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        let checkpointer = try #require(store.makeCheckpointer())
        // One transaction per batch, each writing a few pages of log. Had the writer kept
        // SQLite's automatic checkpoint at 1,000 pages, the log file would never outgrow that.
        var sequence: Int64 = 0
        while try Self.logFilePages(directory.databasePath) <= 1_200, sequence < 3_000 {
            _ = try await store.apply(StoreBatch(notifications: [F.notification("_u\(sequence % 7)", sequence)]))
            sequence += 1
        }
        try #require(try Self.logFilePages(directory.databasePath) > 1_200, "the writer checkpointed by itself")
        let copied = try await checkpointer.checkpoint()
        #expect(copied.logPages > 1_200)
        #expect(copied.checkpointedPages == copied.logPages)
        // Everything was copied and nothing reads the log: the next transaction starts it over.
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", sequence)]))
        let after = try await checkpointer.checkpoint()
        #expect(after.logPages < 100)
        #expect(after.checkpointedPages == after.logPages)
        #expect(try await store.stats().notifications == Int(sequence) + 1)

        checkpointer.close()
        let error = await F.asyncReaderError { try await checkpointer.checkpoint() }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
        try store.close()
    }

    @Test func aStoreInMemoryHasNoLogToCheckpoint() throws {
        #expect(try F.memoryStore().makeCheckpointer() == nil)
    }

    /// The pages the log file has room for: a 32-byte header, then frames of a 24-byte
    /// header and a 4,096-byte page. (The file is reused, not shrunk, when the log starts over.)
    static func logFilePages(_ path: String) throws -> Int {
        let bytes = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        return max(0, bytes - 32) / (24 + 4_096)
    }
}
