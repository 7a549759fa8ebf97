import Foundation
import GRDB

extension NotificationStore {
    /// The identity recorded by `record(_:)` or `rebuild(as:)`, or `nil` when none was.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func identity() async throws(ReaderError) -> StoreIdentity? {
        try await reading("read identity", Self.identity(in:))
    }

    /// Records the identity of the cluster and topics this store is built from, keeping
    /// every row (for a new store, or one whose identity matched).
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func record(_ identity: StoreIdentity) async throws(ReaderError) {
        let topics = try Self.encode(identity.topics)
        try await writing("record identity") { db in try Self.save(identity.clusterID, topics, in: db) }
        useTokenEpoch(identity.clusterID)
    }

    /// Empties the store — notifications, reads, streams, badges and consumed offsets — and
    /// records `identity`, in one transaction: the consumer then reads every topic from its
    /// beginning. Either all of it happens or nothing.
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func rebuild(as identity: StoreIdentity) async throws(ReaderError) {
        let topics = try Self.encode(identity.topics)
        try await writing("rebuild") { db in
            for table in [StoreSchema.notification, StoreSchema.read, StoreSchema.stream, StoreSchema.badge, StoreSchema.consumedOffset] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try Self.save(identity.clusterID, topics, in: db)
        }
        useTokenEpoch(identity.clusterID)
    }

    @Sendable static func identity(in db: Database) throws -> StoreIdentity? {
        guard let row = try Row.fetchOne(db, sql: "SELECT clusterID, topics FROM \(StoreSchema.identity) WHERE id = 1") else {
            return nil
        }
        let text: String = row["topics"]
        guard let topics = try? JSONDecoder().decode([String: Int32].self, from: Data(text.utf8)) else {
            throw ReaderError(.internalError, "the recorded store identity is corrupt: \(text)", operation: "read identity")
        }
        return StoreIdentity(clusterID: row["clusterID"], topics: topics)
    }

    static func save(_ clusterID: String, _ topics: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO \(StoreSchema.identity) (id, clusterID, topics) VALUES (1, ?, ?)",
            arguments: [clusterID, topics])
    }

    static func encode(_ topics: [String: Int32]) throws(ReaderError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(topics) else {
            throw ReaderError(.internalError, "cannot encode the store identity", operation: "record identity")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
