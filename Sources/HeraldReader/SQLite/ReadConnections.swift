import GRDB
import Synchronization

/// Read-only connections to the store's file on which a fetch runs on the caller's own
/// thread: no hop to GRDB's reader queues and back, which cost more than the page query
/// itself (issue 13: dispatch, semaphore and futex wake-ups, task switches).
///
/// Never waits for a connection: a read takes an idle one or opens a new one, and gives it
/// back before returning — it holds none across a suspension point. So the connections in
/// use at once are at most the threads reading at once, and a read cannot deadlock the way
/// a blocking read from GRDB's pool can (there, every cooperative thread may wait for a
/// connection that an awaiting read will only release once it runs again). At most
/// `maximumIdle` connections are kept; one given back beyond that is closed.
///
/// Each read is one deferred transaction: one snapshot of the file (WAL), which a writer
/// never blocks. The connections map up to `mapSize` bytes of the file (`PRAGMA
/// mmap_size`), so pages come from the OS cache without a `pread` each.
final class ReadConnections: Sendable {
    /// Idle connections kept at most.
    let maximumIdle: Int
    /// `PRAGMA mmap_size` of every connection, in bytes.
    static let mapSize = 256 << 20

    private let path: String
    private let state = Mutex<(idle: [DatabaseQueue], closed: Bool)>(([], false))

    /// Connections to the SQLite file at `path` (opened when first needed; the file must
    /// already be a store: the writer created and migrated it).
    init(path: String, maximumIdle: Int = 8) {
        self.path = path
        self.maximumIdle = maximumIdle
    }

    /// `body`'s result, run in one read transaction on a connection of this thread's own.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) when the connections are closed or one
    ///   cannot be opened; what `body` or the database throws.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try connection.inDatabase { db in
            // As GRDB's own pool reads: a deferred transaction, left even when `body` throws.
            // Through cached statements: `beginTransaction()` and `commit()` compile their
            // SQL on every call, which cost a fetch about as much as its page query's step.
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            defer {
                do { try db.cachedStatement(sql: "COMMIT TRANSACTION").execute() } catch { try? db.rollback() }
            }
            return try body(db)
        }
    }

    /// Closes the idle connections; later reads fail. One in use is closed when given back.
    func close() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for connection in idle { try? connection.close() }
    }

    /// Idle connections held now.
    var idleCount: Int { state.withLock { $0.idle.count } }

    /// An idle connection, or a new one.
    private func take() throws(ReaderError) -> DatabaseQueue {
        let taken: DatabaseQueue?? = state.withLock { state in
            state.closed ? .none : .some(state.idle.popLast())
        }
        guard let taken else {
            throw ReaderError(.internalError, "the store is closed", operation: "fetch")
        }
        if let taken { return taken }
        do {
            return try DatabaseQueue(path: path, configuration: Self.configuration())
        } catch {
            throw ReaderError(.internalError, "cannot open a read connection to \(path): \(error)", operation: "fetch")
        }
    }

    private func giveBack(_ connection: DatabaseQueue) {
        let kept = state.withLock { state in
            guard !state.closed, state.idle.count < maximumIdle else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { try? connection.close() }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "herald.reader.fetch"
        configuration.readonly = true
        // A reader of a WAL file waits only while another connection recovers the WAL
        // (after a crash): rare and short.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = \(mapSize)")
        }
        return configuration
    }
}
