import GRDB

extension NotificationStore {
    /// Applies one consumed batch in ONE write transaction: inserts the notifications
    /// (replays by ID, or below the pruned-through mark, are skipped — never an error),
    /// records the reads, enforces `retention.maxCount` on the streams that grew, and saves
    /// the offsets (never moving one backwards). Either all of it is stored or none.
    /// - Returns: what changed, for waking listeners and for metrics.
    /// - Throws: `ReaderError` (`BAD_REQUEST` for a negative offset or a notification
    ///   without recipient or container; `INTERNAL_ERROR` when the database fails — then
    ///   nothing was applied and the batch may be retried).
    public func apply(_ batch: StoreBatch) async throws(ReaderError) -> StoreChanges {
        let prepared = try PreparedBatch(batch)
        let retention = retention
        return try await writing("apply", changed: { .streams($0.changedStreams) }) { db in
            var writer = BatchWriter(db: db, retention: retention)
            return try writer.apply(prepared)
        }
    }

    /// The saved offsets, sorted by topic and partition: where the consumer resumes.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func offsets() async throws(ReaderError) -> [ConsumedOffset] {
        try await reading("read offsets", Self.offsets(in:))
    }

    @Sendable static func offsets(in db: Database) throws -> [ConsumedOffset] {
        try Row.fetchAll(db, sql: #"SELECT topic, "partition", nextOffset FROM consumedOffset ORDER BY topic, "partition""#)
            .map { ConsumedOffset(topic: $0["topic"], partition: $0["partition"], nextOffset: $0["nextOffset"]) }
    }
}
