import GRDB
import HeraldModel
import Testing

@testable import HeraldReader

@Suite("Fetch connections of a file store", .timeLimit(.minutes(5)))
struct ReadConnectionsTests {
    typealias F = ReaderFixtures

    @Test("reads held at once each get their own connection; at most maximumIdle stay open, and later reads reuse them")
    func boundedReuse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)]))
        let connections = ReadConnections(path: directory.databasePath, maximumIdle: 3)
        // Six reads held at once (nested): six connections, never a wait for one.
        func nested(_ depth: Int) throws -> [Int] {
            try connections.read { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notification") ?? -1
                return depth == 1 ? [count] : [count] + (try nested(depth - 1))
            }
        }
        #expect(try nested(6) == Array(repeating: 1, count: 6))
        #expect(connections.idleCount == 3)
        #expect(try nested(2) == [1, 1])
        #expect(connections.idleCount == 3)
        connections.close()
        try store.close()
    }

    @Test("a connection reads what was committed after it opened, maps the file, and a read after close fails")
    func freshSnapshotsAndClose() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        let connections = ReadConnections(path: directory.databasePath)
        let count = { () throws -> Int in
            try connections.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notification") ?? -1 }
        }
        #expect(try count() == 0)
        _ = try await store.apply(StoreBatch(notifications: (0..<3).map { F.notification("_u1", $0) }))
        #expect(try count() == 3)
        #expect(connections.idleCount == 1)
        let mapped = try connections.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") }
        #expect(mapped == ReadConnections.mapSize)
        // Read-only: a write through a fetch connection is refused.
        #expect(throws: (any Error).self) {
            try connections.read { db in try db.execute(sql: "DELETE FROM notification") }
        }
        #expect(try count() == 3)
        connections.close()
        #expect(connections.idleCount == 0)
        let error = F.readerError { () throws(ReaderError) in
            do { return try count() } catch let error as ReaderError { throw error } catch { return -1 }
        }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
        #expect(error?.reason.contains("closed") == true)
        try store.close()
    }

    @Test("the writer keeps 64 MB of pages; a pool's read connections keep SQLite's default")
    func writerCache() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        let writer = try await store.database.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(writer == -NotificationStore.writerCacheKilobytes)
        let reader = try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(reader == -2000)
        try store.close()
    }
}
