import GRDB
import HeraldModel

/// Applies one `PreparedBatch` inside the caller's write transaction.
struct BatchWriter {
    let db: Database
    let retention: RetentionPolicy
    private var changes = StoreChanges()
    private var marks: [StreamID: Int64] = [:]

    init(db: Database, retention: RetentionPolicy) {
        self.db = db
        self.retention = retention
    }

    /// Notifications, then reads, then the count limit, then offsets.
    mutating func apply(_ batch: PreparedBatch) throws -> StoreChanges {
        for notification in batch.notifications { try insert(notification) }
        for read in batch.reads { try record(read) }
        for stream in changes.grownStreams.keys.sorted() { try limit(stream) }
        for badge in batch.badges {
            try db.cachedStatement(sql: """
                INSERT INTO badge (recipient, container, badge) VALUES (?, ?, ?)
                ON CONFLICT (recipient, container) DO UPDATE SET badge = excluded.badge
                """).execute(arguments: [badge.recipient, badge.containerIdentifier, max(0, badge.badge)])
        }
        for offset in batch.offsets { try save(offset) }
        return changes
    }

    /// Enforces `retention.maxCount` on a stream that grew and records its latest sequence.
    ///
    /// Every retained row is above the stream's mark (`StreamRetention`) and sequences are
    /// distinct, so the stream holds at most `latest − mark` rows: the count query, which
    /// walks up to `maxCount` index entries, runs only when that exceeds the limit (a stream
    /// near or past it). Either way the latest sequence is the newest retained one: the limit
    /// removes only older ones, and the mark it sets stays below.
    private mutating func limit(_ stream: StreamID) throws {
        // `insert` read the mark of every stream it grew.
        let mark = try marks[stream] ?? StreamRetention.prunedThrough(stream, in: db)
        guard let latest = try StreamRetention.latestRetainedSequence(stream, in: db) else { return }
        if latest - mark > Int64(retention.maxCount) {
            changes.prunedCount += try StreamRetention.enforceCount(retention.maxCount, on: stream, in: db)
        }
        changes.grownStreams[stream] = max(latest, mark)
    }

    private mutating func insert(_ row: EncodedNotification) throws {
        let stream = StreamID(recipient: row.recipient, container: row.containerIdentifier)
        // A sequence at or below the mark was stored once and removed by retention: its ID
        // is gone, so only the mark tells that this is a replay.
        guard row.sequence > (try mark(of: stream)) else {
            changes.duplicateCount += 1
            return
        }
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO notification (notificationID, recipient, container, sequence, createdAt, json)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                row.notificationID, stream.recipient, stream.container, row.sequence, row.createdAt, row.json,
            ])
        if db.changesCount > 0 {
            changes.insertedCount += 1
            changes.grownStreams[stream] = max(changes.grownStreams[stream] ?? row.sequence, row.sequence)
        } else if try isStored(row.notificationID) {
            changes.duplicateCount += 1
        } else {
            // Rare: decode the whole notification only to report it; one that does not decode
            // is still reported, with the fields the store indexed.
            changes.sequenceConflicts.append(
                (try? WireCodec().decode(HeraldNotification.self, from: row.json))
                    ?? HeraldNotification(
                        notificationID: row.notificationID, notificationType: .database, containerIdentifier: stream.container,
                        recipient: stream.recipient, sequence: row.sequence, createdAt: row.createdAt))
        }
    }

    private func isStored(_ notificationID: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM notification WHERE notificationID = ?)"),
            arguments: [notificationID]) ?? false
    }

    /// The stream's pruned-through mark, creating its row on first sight (one statement for
    /// a known stream: the row is read first and written only when absent).
    private mutating func mark(of stream: StreamID) throws -> Int64 {
        if let mark = marks[stream] { return mark }
        let mark: Int64
        if let stored = try StreamRetention.storedPrunedThrough(stream, in: db) {
            mark = stored
        } else {
            // Absent in this transaction a moment ago, so the new row holds the default, -1.
            try db.cachedStatement(sql: """
                INSERT INTO stream (recipient, container) VALUES (?, ?) ON CONFLICT (recipient, container) DO NOTHING
                """).execute(arguments: [stream.recipient, stream.container])
            mark = -1
        }
        marks[stream] = mark
        return mark
    }

    private mutating func record(_ read: NotificationRead) throws {
        let stream = StreamID(recipient: read.recipient, container: read.containerIdentifier)
        let statement = try db.cachedStatement(sql: """
            INSERT INTO notificationRead (recipient, container, notificationID, readAt) VALUES (?, ?, ?, ?)
            ON CONFLICT (recipient, container, notificationID) DO NOTHING
            """)
        for notificationID in read.notificationIDs {
            try statement.execute(arguments: [stream.recipient, stream.container, notificationID, read.readAt])
            if db.changesCount > 0 {
                changes.readCount += 1
                changes.readStreams.insert(stream)
            }
        }
    }

    private func save(_ offset: ConsumedOffset) throws {
        try db.cachedStatement(sql: """
            INSERT INTO consumedOffset (topic, "partition", nextOffset) VALUES (?, ?, ?)
            ON CONFLICT (topic, "partition") DO UPDATE SET nextOffset = excluded.nextOffset
            WHERE excluded.nextOffset > consumedOffset.nextOffset
            """).execute(arguments: [offset.topic, offset.partition, offset.nextOffset])
    }
}
