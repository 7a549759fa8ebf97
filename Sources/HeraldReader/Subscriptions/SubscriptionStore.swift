import Foundation
import GRDB

/// The API's directory of every subscription, in SQLite (GRDB, WAL) in the instance's data
/// directory: the compacted `subscriptions` topic as rows (`StoredSubscription`), with the
/// consumed offsets saved in the same transaction as the rows and the identity of the
/// cluster and topics they came from (`StoreIdentity`, as `NotificationStore` keeps it), so
/// a restart resumes where it stopped and a store from another cluster is rebuilt. No
/// instance holds every subscription in memory (docs/ARCHITECTURE.md §9): a read loads the
/// rows it asks for.
///
/// Threading: `Sendable`, shared by the loader and the HTTP handlers. Writes are
/// serialized and awaited (`write(_:offsets:_:)`); reads run beside them on a consistent
/// snapshot, synchronously on the caller's thread (`read(_:_:)`: an index lookup of a few
/// rows, which in WAL mode never waits for the writer, for request handlers whose protocol is
/// synchronous).
public final class SubscriptionStore: Sendable {
    let database: any DatabaseWriter

    /// Opens (creating if needed) the store in the SQLite file at `path`, in WAL mode, and
    /// migrates its schema. The directory must exist. `synchronous=NORMAL`: a power loss may
    /// lose the last transactions, rows and offsets together, which the loader reads again.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) when SQLite cannot open or migrate the file.
    public convenience init(path: String) throws(ReaderError) {
        var configuration = Configuration()
        configuration.label = "herald.subscriptions"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The writer keeps 16 MB of pages (SQLite's default is 2 MB): filing a million
            // keys in hash order touches pages all over the indexes. Bounded, whatever the count.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -16000") }
            // Checkpoints belong to a `WALCheckpointer` (the loader runs one); this is the backstop.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(NotificationStore.writerCheckpointPages)")
        }
        do {
            try self.init(database: try DatabasePool(path: path, configuration: configuration))
        } catch {
            throw ReaderError.wrapping(error, operation: "open \(path)")
        }
    }

    /// A store in memory, gone when released: for tests and tools.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public static func inMemory() throws(ReaderError) -> SubscriptionStore {
        do {
            return try SubscriptionStore(database: try DatabaseQueue())
        } catch {
            throw ReaderError.wrapping(error, operation: "open")
        }
    }

    private init(database: any DatabaseWriter) throws(ReaderError) {
        do {
            try SubscriptionStoreSchema.migrator.migrate(database)
        } catch {
            throw ReaderError(.internalError, "cannot migrate the subscription store's schema: \(error)", operation: "open")
        }
        self.database = database
    }

    /// Runs `body` on a consistent snapshot of the rows, on the caller's thread.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) for a database failure; an error of `body`
    ///   of another type unchanged.
    public func read<T>(_ operation: String, _ body: (SubscriptionRows) throws -> T) throws -> T {
        do {
            return try database.read { db in try body(SubscriptionRows(db: db)) }
        } catch let error as DatabaseError {
            throw ReaderError.wrapping(error, operation: operation)
        }
    }

    /// Runs `body` and saves `offsets` (never moving one backwards) in ONE write transaction
    /// on the store's writer (the caller awaits it without blocking a thread): a consumed
    /// batch's rows and its positions are stored together or not at all; a request's
    /// read-your-writes update saves none.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`) for a database failure; an error of `body`
    ///   of another type unchanged. Either way nothing was written.
    public func write<T: Sendable>(
        _ operation: String, offsets: [ConsumedOffset] = [], _ body: @escaping @Sendable (SubscriptionRows) throws -> T
    ) async throws -> T {
        do {
            return try await database.write { db in
                let result = try body(SubscriptionRows(db: db))
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO consumedOffset (topic, "partition", nextOffset) VALUES (?, ?, ?)
                    ON CONFLICT (topic, "partition") DO UPDATE SET nextOffset = max(nextOffset, excluded.nextOffset)
                    """)
                for offset in offsets {
                    try statement.execute(arguments: [offset.topic, offset.partition, offset.nextOffset])
                }
                return result
            }
        } catch let error as DatabaseError {
            throw ReaderError.wrapping(error, operation: operation)
        } catch is CancellationError {
            throw ReaderError.wrapping(CancellationError(), operation: operation)
        }
    }

    /// The saved offsets, sorted by topic and partition: where the loader resumes.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func offsets() async throws(ReaderError) -> [ConsumedOffset] {
        do {
            return try await database.read(NotificationStore.offsets(in:))
        } catch {
            throw ReaderError.wrapping(error, operation: "read offsets")
        }
    }

    /// The identity recorded by `record(_:)` or `rebuild(as:)`, or `nil` when none was.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func identity() async throws(ReaderError) -> StoreIdentity? {
        do {
            return try await database.read(NotificationStore.identity(in:))
        } catch {
            throw ReaderError.wrapping(error, operation: "read identity")
        }
    }

    /// Records the identity of the cluster and topics the rows come from, keeping every row.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func record(_ identity: StoreIdentity) async throws(ReaderError) {
        let topics = try NotificationStore.encode(identity.topics)
        do {
            try await database.write { db in try NotificationStore.save(identity.clusterID, topics, in: db) }
        } catch {
            throw ReaderError.wrapping(error, operation: "record identity")
        }
    }

    /// Empties the store — subscriptions, old keys and offsets — and records `identity`, in
    /// one transaction: the loader then reads the topic from its beginning.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`); then nothing changed.
    public func rebuild(as identity: StoreIdentity) async throws(ReaderError) {
        let topics = try NotificationStore.encode(identity.topics)
        do {
            try await database.write { db in
                for table in [SubscriptionStoreSchema.subscription, SubscriptionStoreSchema.legacyKey, SubscriptionStoreSchema.consumedOffset] {
                    try db.execute(sql: "DELETE FROM \(table)")
                }
                try NotificationStore.save(identity.clusterID, topics, in: db)
            }
        } catch {
            throw ReaderError.wrapping(error, operation: "rebuild")
        }
    }

    /// A checkpointer of this store's log, to run beside the writer (as the reader's store
    /// has: a checkpoint syncs to disk, which the writer then never waits for); `nil` in memory.
    public func makeCheckpointer() -> WALCheckpointer? {
        guard let pool = database as? DatabasePool else { return nil }
        return WALCheckpointer(path: pool.path)
    }

    /// Closes the database; later calls fail with `INTERNAL_ERROR`.
    /// - Throws: `ReaderError` when a connection is still in use.
    public func close() throws(ReaderError) {
        do {
            try database.close()
        } catch {
            throw ReaderError.wrapping(error, operation: "close")
        }
    }
}
