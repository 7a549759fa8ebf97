import GRDB

/// The store's tables, created and upgraded by GRDB migrations (append new migrations;
/// never edit a shipped one).
///
/// - `notification`: one row per retained notification — `notificationID` UNIQUE,
///   `recipient`, `container`, `sequence` (UNIQUE per recipient and container: the fetch
///   index), `createdAt` (indexed, for age retention) and `json`, the notification as
///   `WireCodec` encodes it.
/// - `notificationRead`: read marks keyed by (recipient, container, notificationID) —
///   kept even when the notification has not arrived, applied by join at fetch time.
/// - `stream`: per (recipient, container), `prunedThrough`, the highest sequence retention
///   has removed (-1 = none); every retained row has a greater sequence.
/// - `consumedOffset`: (topic, partition) → the next offset to consume.
/// - `badge` (v2): per (recipient, container), the latest `BadgeCount` of topic `badges`.
/// - `storeIdentity` (v3): one row (`id` = 1) — the Kafka `clusterID` and the consumed
///   `topics` with their partition counts (JSON), see `StoreIdentity`.
enum StoreSchema {
    static let badge = "badge"
    static let notification = "notification"
    static let read = "notificationRead"
    static let stream = "stream"
    static let consumedOffset = "consumedOffset"
    static let identity = "storeIdentity"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: notifications, reads, streams, offsets") { db in
            try db.create(table: notification) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("notificationID", .text).notNull().unique()
                t.required(["recipient": .text, "container": .text, "sequence": .integer, "createdAt": .integer, "json": .blob])
                t.uniqueKey(["recipient", "container", "sequence"])
            }
            try db.create(index: "notification_on_createdAt", on: notification, columns: ["createdAt"])
            try db.create(table: read, options: .withoutRowID) { t in
                t.required(["recipient": .text, "container": .text, "notificationID": .text, "readAt": .integer])
                t.primaryKey(["recipient", "container", "notificationID"])
            }
            try db.create(index: "notificationRead_on_readAt", on: read, columns: ["readAt"])
            try db.create(table: stream, options: .withoutRowID) { t in
                t.required(["recipient": .text, "container": .text])
                t.column("prunedThrough", .integer).notNull().defaults(to: -1)
                t.primaryKey(["recipient", "container"])
            }
            try db.create(table: consumedOffset, options: .withoutRowID) { t in
                t.required(["topic": .text, "partition": .integer, "nextOffset": .integer])
                t.primaryKey(["topic", "partition"])
            }
        }
        migrator.registerMigration("v2: badges") { db in
            try db.create(table: badge, options: .withoutRowID) { t in
                t.required(["recipient": .text, "container": .text, "badge": .integer])
                t.primaryKey(["recipient", "container"])
            }
        }
        migrator.registerMigration("v3: store identity") { db in
            try db.create(table: identity) { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.required(["clusterID": .text, "topics": .text])
            }
        }
        return migrator
    }
}

extension TableDefinition {
    /// Adds `NOT NULL` columns without defaults, in the order given (every column of the
    /// store has no nullable one; the SQL is the same as one `column(_:_:).notNull()` each).
    fileprivate func required(_ columns: KeyValuePairs<String, Database.ColumnType>) {
        for (name, type) in columns {
            column(name, type).notNull()
        }
    }
}
