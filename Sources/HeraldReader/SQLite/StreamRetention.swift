import GRDB

/// Removes a prefix of a stream and advances its pruned-through mark — the only way rows
/// leave the store, so every retained row stays above the mark.
enum StreamRetention {
    /// Deletes the stream's notifications with sequence ≤ `sequence` (and their read
    /// marks) and raises `prunedThrough` to `sequence`.
    /// - Returns: the number of notifications deleted.
    static func remove(through sequence: Int64, of stream: StreamID, in db: Database) throws -> Int {
        let arguments: StatementArguments = [
            "recipient": stream.recipient, "container": stream.container, "sequence": sequence,
        ]
        try db.cachedStatement(sql: """
            DELETE FROM notificationRead WHERE recipient = :recipient AND container = :container
              AND notificationID IN (SELECT notificationID FROM notification
                WHERE recipient = :recipient AND container = :container AND sequence <= :sequence)
            """).execute(arguments: arguments)
        try db.cachedStatement(sql: """
            DELETE FROM notification WHERE recipient = :recipient AND container = :container AND sequence <= :sequence
            """).execute(arguments: arguments)
        let removed = db.changesCount
        try db.cachedStatement(sql: """
            INSERT INTO stream (recipient, container, prunedThrough) VALUES (:recipient, :container, :sequence)
            ON CONFLICT (recipient, container) DO UPDATE SET prunedThrough = max(prunedThrough, excluded.prunedThrough)
            """).execute(arguments: arguments)
        return removed
    }

    /// Enforces `maxCount`: removes everything older than the newest `maxCount`.
    /// - Returns: the number of notifications deleted.
    static func enforceCount(_ maxCount: Int, on stream: StreamID, in db: Database) throws -> Int {
        let cut = try Int64.fetchOne(
            db.cachedStatement(sql: """
                SELECT sequence FROM notification WHERE recipient = ? AND container = ?
                ORDER BY sequence DESC LIMIT 1 OFFSET ?
                """),
            arguments: [stream.recipient, stream.container, maxCount])
        guard let cut else { return 0 }
        return try remove(through: cut, of: stream, in: db)
    }

    /// Enforces the age limit on every stream: removes, per stream, everything up to the
    /// newest notification created before `cutoff` (a prefix, even if clocks made an older
    /// sequence younger), then read marks older than `cutoff` whose notification is absent.
    static func enforceAge(cutoff: Int64, in db: Database) throws -> PruneReport {
        var report = PruneReport()
        let rows = try Row.fetchAll(db, sql: """
            SELECT recipient, container, MAX(sequence) AS sequence FROM notification
            WHERE createdAt < ? GROUP BY recipient, container
            """, arguments: [cutoff])
        for row in rows {
            let stream = StreamID(recipient: row["recipient"], container: row["container"])
            report.notificationsRemoved += try remove(through: row["sequence"], of: stream, in: db)
            report.prunedStreams.insert(stream)
        }
        try db.execute(sql: """
            DELETE FROM notificationRead WHERE readAt < ? AND NOT EXISTS (
              SELECT 1 FROM notification n WHERE n.recipient = notificationRead.recipient
                AND n.container = notificationRead.container AND n.notificationID = notificationRead.notificationID)
            """, arguments: [cutoff])
        report.readsRemoved = db.changesCount
        return report
    }

    /// The stream's pruned-through mark; -1 when nothing was removed (or the stream is unknown).
    static func prunedThrough(_ stream: StreamID, in db: Database) throws -> Int64 {
        try storedPrunedThrough(stream, in: db) ?? -1
    }

    /// The stream's pruned-through mark, or `nil` when the stream has no row yet.
    static func storedPrunedThrough(_ stream: StreamID, in db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT prunedThrough FROM stream WHERE recipient = ? AND container = ?"),
            arguments: [stream.recipient, stream.container])
    }

    /// The highest sequence the stream has had — retained or removed — or `nil` if none.
    static func latestSequence(_ stream: StreamID, in db: Database) throws -> Int64? {
        let latest = max(try latestRetainedSequence(stream, in: db) ?? -1, try prunedThrough(stream, in: db))
        return latest >= 0 ? latest : nil
    }

    /// The highest sequence of the stream's retained notifications, or `nil` if none is.
    static func latestRetainedSequence(_ stream: StreamID, in db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT MAX(sequence) FROM notification WHERE recipient = ? AND container = ?"),
            arguments: [stream.recipient, stream.container])
    }
}
