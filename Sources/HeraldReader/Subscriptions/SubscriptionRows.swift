import Foundation
import GRDB

/// The rows of a `SubscriptionStore` inside one of its transactions (`SubscriptionStore.read(_:)`,
/// `SubscriptionStore.write(offsets:_:)`): valid only during the closure it is handed to.
/// Statements are cached per connection, so filing a million rows prepares each once.
public struct SubscriptionRows {
    let db: Database

    /// The row of identity `key`, if any.
    public func subscription(forKey key: String) throws -> StoredSubscription? {
        let statement = try db.cachedStatement(sql: "SELECT * FROM subscription WHERE key = ?")
        return try Row.fetchOne(statement, arguments: [key]).map(Self.stored)
    }

    /// Where the row of identity `key` came from — its misplaced partition and old key —
    /// without reading its value (filing asks this of every record); `nil`: no row.
    public func origin(ofKey key: String) throws -> (misplacedPartition: Int32?, oldKey: String?)? {
        let statement = try db.cachedStatement(sql: "SELECT misplacedPartition, oldKey FROM subscription WHERE key = ?")
        return try Row.fetchOne(statement, arguments: [key]).map { ($0["misplacedPartition"], $0["oldKey"]) }
    }

    /// The rows of one owner's scope, in any order.
    public func subscriptions(owner: String) throws -> [StoredSubscription] {
        let statement = try db.cachedStatement(sql: "SELECT * FROM subscription WHERE owner = ?")
        return try Row.fetchAll(statement, arguments: [owner]).map(Self.stored)
    }

    /// The rows of one owner's scope with definition digest `definition`.
    public func subscriptions(owner: String, definition: String) throws -> [StoredSubscription] {
        let statement = try db.cachedStatement(sql: "SELECT * FROM subscription WHERE owner = ? AND definition = ?")
        return try Row.fetchAll(statement, arguments: [owner, definition]).map(Self.stored)
    }

    /// How many subscriptions the store holds.
    public func count() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM subscription") ?? 0
    }

    /// Adds or replaces the row of `row.key`.
    public func save(_ row: StoredSubscription) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO subscription (key, owner, definition, misplacedPartition, oldKey, value)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [row.key, row.owner, row.definition, row.misplacedPartition, row.oldKey, row.value])
    }

    /// Deletes the row of `key` (nothing when there is none).
    public func delete(key: String) throws {
        try db.cachedStatement(sql: "DELETE FROM subscription WHERE key = ?").execute(arguments: [key])
    }

    /// Forgets that the row of `key` came from an old key (its record is under its own key now).
    public func clearOldKey(of key: String) throws {
        try db.cachedStatement(sql: "UPDATE subscription SET oldKey = NULL WHERE key = ? AND oldKey IS NOT NULL")
            .execute(arguments: [key])
    }

    /// The identity last read under `oldKey`, until its tombstone.
    public func identity(ofOldKey oldKey: String) throws -> String? {
        try String.fetchOne(try db.cachedStatement(sql: "SELECT identity FROM legacyKey WHERE oldKey = ?"), arguments: [oldKey])
    }

    /// Records that `identity` was read under `oldKey`.
    public func record(oldKey: String, identity: String) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO legacyKey (oldKey, identity) VALUES (?, ?)")
            .execute(arguments: [oldKey, identity])
    }

    /// Forgets `oldKey` (its tombstone was read).
    public func forget(oldKey: String) throws {
        try db.cachedStatement(sql: "DELETE FROM legacyKey WHERE oldKey = ?").execute(arguments: [oldKey])
    }

    private static func stored(_ row: Row) -> StoredSubscription {
        StoredSubscription(
            key: row["key"], owner: row["owner"], definition: row["definition"],
            misplacedPartition: row["misplacedPartition"], oldKey: row["oldKey"], value: row["value"])
    }
}
