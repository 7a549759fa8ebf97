import GRDB

/// The subscription store's tables, created and upgraded by GRDB migrations (append new
/// migrations; never edit a shipped one).
///
/// - `subscription`: one row per subscription (`StoredSubscription`), keyed by identity;
///   indexed by (owner, definition) for listing and the duplicate check.
/// - `legacyKey`: each key before per-user IDs that a record was read under (and no
///   tombstone since) → the identity it last held (`LegacySubscriptionKeys` in a table).
/// - `consumedOffset`: (topic, partition) → the next offset to consume.
/// - `storeIdentity`: one row (`id` = 1), the Kafka cluster and topics (see `StoreIdentity`).
enum SubscriptionStoreSchema {
    static let subscription = "subscription"
    static let legacyKey = "legacyKey"
    static let consumedOffset = "consumedOffset"
    static let identity = "storeIdentity"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: subscriptions, legacy keys, offsets, identity") { db in
            try db.create(table: subscription) { t in
                t.primaryKey("key", .text)
                t.column("owner", .text).notNull()
                t.column("definition", .text).notNull()
                t.column("misplacedPartition", .integer)
                t.column("oldKey", .text)
                t.column("value", .blob).notNull()
            }
            try db.create(index: "subscription_on_owner_definition", on: subscription, columns: ["owner", "definition"])
            try db.create(table: legacyKey, options: .withoutRowID) { t in
                t.primaryKey("oldKey", .text)
                t.column("identity", .text).notNull()
            }
            try db.create(table: consumedOffset, options: .withoutRowID) { t in
                t.column("topic", .text).notNull()
                t.column("partition", .integer).notNull()
                t.column("nextOffset", .integer).notNull()
                t.primaryKey(["topic", "partition"])
            }
            try db.create(table: identity) { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("clusterID", .text).notNull()
                t.column("topics", .text).notNull()
            }
        }
        return migrator
    }
}
