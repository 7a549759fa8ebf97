import GRDB
import Synchronization

/// Checkpoints a file store's write-ahead log — copies the committed pages into the
/// database file — on a connection of its own, so that the writer (the reader stage
/// applying its batches) does not have to.
///
/// A checkpoint syncs the log and then the database file to disk (`fdatasync`). Done by
/// SQLite's automatic checkpoint, it ran on the writer inside `apply` every 1,000 pages of
/// log: on this machine, busy with other I/O, one took up to a second, and every batch that
/// arrived meanwhile waited for it (issue 13: most of the paced run's tail, measured with
/// `bench pipeline`'s `ProbeTrace` and `strace -e fdatasync`). The store's writer keeps its
/// automatic checkpoint as a backstop (`NotificationStore.writerCheckpointPages`, which
/// says when this checkpointer cannot keep the log short).
///
/// Checkpoints are passive: they never wait for the writer or for readers, and never hold
/// them up; each copies what no open read still needs. A log copied completely starts over
/// at the writer's next transaction.
public final class WALCheckpointer: Sendable {
    /// What one checkpoint found and did, in pages (frames) of the log.
    public struct Outcome: Sendable, Hashable {
        /// Pages in the log.
        public var logPages: Int
        /// Of these, the pages now in the database file.
        public var checkpointedPages: Int
        /// Whether another connection held the checkpoint lock (the writer checkpointing
        /// itself, its backstop): nothing was done, and the next round tries again. A passive
        /// checkpoint never waits for it, so this is expected under sustained writes.
        public var skipped = false
    }

    private let path: String
    private let connection = Mutex<(queue: DatabaseQueue?, closed: Bool)>((nil, false))

    /// A checkpointer of the store in the SQLite file at `path` (opened at the first checkpoint).
    init(path: String) {
        self.path = path
    }

    /// One passive checkpoint, run on GRDB's queue of the checkpointer's connection (the
    /// caller's thread is not blocked while the disk syncs).
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) when the checkpointer is closed, its
    ///   connection cannot be opened, or SQLite fails.
    @discardableResult
    public func checkpoint() async throws(ReaderError) -> Outcome {
        let queue = try open()
        do {
            let (log, checkpointed) = try await queue.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            return Outcome(logPages: log, checkpointedPages: checkpointed)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return Outcome(logPages: 0, checkpointedPages: 0, skipped: true)
        } catch {
            throw ReaderError.wrapping(error, operation: "checkpoint")
        }
    }

    /// Closes the connection; later checkpoints fail.
    public func close() {
        let queue = connection.withLock { state in
            state.closed = true
            defer { state.queue = nil }
            return state.queue
        }
        try? queue?.close()
    }

    private func open() throws(ReaderError) -> DatabaseQueue {
        let opened: Result<DatabaseQueue, ReaderError> = connection.withLock { state in
            if state.closed { return .failure(ReaderError(.internalError, "the checkpointer is closed", operation: "checkpoint")) }
            if let queue = state.queue { return .success(queue) }
            var configuration = Configuration()
            configuration.label = "herald.reader.checkpoint"
            configuration.prepareDatabase { db in
                // Same durability as the writer: the log is synced before pages are copied
                // out of it, the file after (in WAL mode, only checkpoints sync).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                state.queue = queue
                return .success(queue)
            } catch {
                return .failure(ReaderError(.internalError, "cannot open a checkpoint connection to \(path): \(error)", operation: "checkpoint"))
            }
        }
        return try opened.get()
    }
}
