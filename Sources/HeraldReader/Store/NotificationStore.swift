import GRDB
import Synchronization

/// The reader's materialized view of topics `notifications`, `notification-reads` and
/// `badges`: per-user notification streams and badge counts in SQLite (GRDB, WAL), with the
/// consumed Kafka offsets saved in the same transaction as the rows, retention per stream,
/// and fetches with signed change tokens (docs/ARCHITECTURE.md §1.1, §2, §7).
///
/// Threading: a `NotificationStore` is `Sendable`; share one instance between the consumer
/// and the HTTP handlers. Writes are serialized; reads run concurrently with writes and
/// with each other, each on a consistent snapshot (WAL). Every operation is `async`: it
/// awaits a GRDB connection without blocking the cooperative pool — except a fetch from a
/// file store, which runs its short read on the caller's thread on a connection of its own
/// that it never waits for (`ReadConnections`), saving two thread hops. Notifications go in and
/// come out as their JSON (`EncodedNotification`, `EncodedNotificationPage`): the store
/// never decodes a notification on the way through.
public final class NotificationStore: Sendable {
    /// The `resultsLimit` used when a fetch gives none.
    public static let defaultResultsLimit = 200
    /// The largest page a fetch returns; a larger `resultsLimit` is clamped to it.
    public static let maximumResultsLimit = 400

    /// Issues and checks the change tokens of this store's fetches; also what the HTTP
    /// layer uses for server-sent event IDs. Its `epoch` is the cluster of the store's
    /// recorded identity (set when the store opens, records or rebuilds its identity), so a
    /// token from a store built on another cluster is `CHANGE_TOKEN_EXPIRED` here.
    public var tokenSigner: ChangeTokenSigner { signer.withLock { $0 } }
    private let signer: Mutex<ChangeTokenSigner>
    /// How much of each stream is kept.
    public let retention: RetentionPolicy
    /// Write only through `writing`: it forgets the pages fetches kept (`pageCache`).
    let database: any DatabaseWriter
    /// The connections fetches read on (a file store); `nil` in memory, where fetches read
    /// through `database`.
    let fetchConnections: ReadConnections?
    /// Pages answered, until a write changes their stream (see `writing`).
    let pageCache = PageCache()

    /// Opens (creating if needed) the store in the SQLite file at `path`, in WAL mode, and
    /// migrates its schema. The directory must exist. `synchronous=NORMAL`: a power loss
    /// may lose the last transactions, but rows and offsets are lost together, so the
    /// consumer replays exactly what is missing.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR` when SQLite cannot open or migrate the
    ///   file, `INVALID_CONFIGURATION` for a bad retention policy).
    public convenience init(path: String, tokenSigner: ChangeTokenSigner, retention: RetentionPolicy = RetentionPolicy()) throws(ReaderError) {
        try retention.validate()
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration())
        } catch {
            throw ReaderError(.internalError, "cannot open \(path): \(error)", operation: "open")
        }
        try self.init(
            database: pool, fetchConnections: ReadConnections(path: path), tokenSigner: tokenSigner, retention: retention)
    }

    /// A store in memory, gone when released: for tests and tools. Reads are serialized
    /// with writes (no WAL in memory); otherwise it behaves like a file store.
    /// - Throws: `ReaderError` as `init(path:tokenSigner:retention:)`.
    public static func inMemory(tokenSigner: ChangeTokenSigner, retention: RetentionPolicy = RetentionPolicy()) throws(ReaderError) -> NotificationStore {
        try retention.validate()
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw ReaderError(.internalError, "cannot open an in-memory database: \(error)", operation: "open")
        }
        return try NotificationStore(database: queue, fetchConnections: nil, tokenSigner: tokenSigner, retention: retention)
    }

    private init(
        database: any DatabaseWriter, fetchConnections: ReadConnections?, tokenSigner: ChangeTokenSigner,
        retention: RetentionPolicy
    ) throws(ReaderError) {
        do {
            try StoreSchema.migrator.migrate(database)
        } catch {
            throw ReaderError(.internalError, "cannot migrate the schema: \(error)", operation: "open")
        }
        let epoch: String?
        do {
            epoch = try database.read { db in try Self.identity(in: db)?.clusterID }
        } catch {
            throw ReaderError(.internalError, "cannot read the store identity: \(error)", operation: "open")
        }
        var signer = tokenSigner
        signer.epoch = epoch
        self.database = database
        self.fetchConnections = fetchConnections
        self.signer = Mutex(signer)
        self.retention = retention
    }

    /// Binds the change tokens issued and accepted from now on to `epoch` (see `tokenSigner`).
    func useTokenEpoch(_ epoch: String) {
        signer.withLock { $0.epoch = epoch }
        // Kept pages hold tokens signed for the epoch before.
        pageCache.forget(.everything)
    }

    /// Closes the database; later calls fail with `INTERNAL_ERROR`. Optional: releasing
    /// the store closes it too.
    /// - Throws: `ReaderError` when a connection is still in use.
    public func close() throws(ReaderError) {
        pageCache.close()
        fetchConnections?.close()
        do {
            try database.close()
        } catch {
            throw ReaderError.wrapping(error, operation: "close")
        }
    }

    /// The writer's page cache, in kilobytes (`PRAGMA cache_size`).
    static let writerCacheKilobytes = 64_000

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "herald.reader"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The writer keeps up to 64 MB of pages (SQLite's default is 2 MB). Each stored
            // notification goes into the unique index of notification IDs, random UUIDs, and
            // appends to its user's stream: with 2 MB the touched index pages were read back
            // from the file again and again (`pread` ~5% of a pipeline run at 8.5k changes/s).
            // The index of a million notifications is ~60 MB. Bounded, whatever the count.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKilobytes)") }
            // Checkpoints belong to a `WALCheckpointer` (see there); this is the backstop.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(writerCheckpointPages)")
        }
        return configuration
    }

    // MARK: Transactions with errors mapped to ReaderError

    /// `updates` in one write transaction; then the kept pages of the streams `changed`
    /// names for its result are forgotten (every page when it names none, or when the
    /// write fails: a failure may come after the commit), before this returns.
    func writing<T: Sendable>(
        _ operation: String, changed: (T) -> PageCache.Change = { _ in .everything },
        _ updates: @Sendable (Database) throws -> T
    ) async throws(ReaderError) -> T {
        do {
            let result = try await database.write(updates)
            pageCache.forget(changed(result))
            return result
        } catch {
            pageCache.forget(.everything)
            throw ReaderError.wrapping(error, operation: operation)
        }
    }

    func reading<T: Sendable>(_ operation: String, _ value: @Sendable (Database) throws -> T) async throws(ReaderError) -> T {
        do {
            return try await database.read(value)
        } catch {
            throw ReaderError.wrapping(error, operation: operation)
        }
    }
}
