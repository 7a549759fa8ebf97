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
                t.column("recipient", .text).notNull()
                t.column("container", .text).notNull()
                t.column("sequence", .integer).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("json", .blob).notNull()
                t.uniqueKey(["recipient", "container", "sequence"])
            }
            try db.create(index: "notification_on_createdAt", on: notification, columns: ["createdAt"])
            try db.create(table: read, options: .withoutRowID) { t in
                t.column("recipient", .text).notNull()
                t.column("container", .text).notNull()
                t.column("notificationID", .text).notNull()
                t.column("readAt", .integer).notNull()
                t.primaryKey(["recipient", "container", "notificationID"])
            }
            try db.create(index: "notificationRead_on_readAt", on: read, columns: ["readAt"])
            try db.create(table: stream, options: .withoutRowID) { t in
                t.column("recipient", .text).notNull()
                t.column("container", .text).notNull()
                t.column("prunedThrough", .integer).notNull().defaults(to: -1)
                t.primaryKey(["recipient", "container"])
            }
            try db.create(table: consumedOffset, options: .withoutRowID) { t in
                t.column("topic", .text).notNull()
                t.column("partition", .integer).notNull()
                t.column("nextOffset", .integer).notNull()
                t.primaryKey(["topic", "partition"])
            }
        }
        migrator.registerMigration("v2: badges") { db in
            try db.create(table: badge, options: .withoutRowID) { t in
                t.column("recipient", .text).notNull()
                t.column("container", .text).notNull()
                t.column("badge", .integer).notNull()
                t.primaryKey(["recipient", "container"])
            }
        }
        migrator.registerMigration("v3: store identity") { db in
            try db.create(table: identity) { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("clusterID", .text).notNull()
                t.column("topics", .text).notNull()
            }
        }
        return migrator
    }
}
