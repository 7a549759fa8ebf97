import Foundation
import HeraldMatcher
import HeraldModel
import HeraldReader

/// Every subscription, for the API (lists, lookups, the duplicate check before a
/// subscription is published), kept in SQLite rather than in memory: the compacted
/// `subscriptions` topic as rows of a `SubscriptionStore`, filed by
/// `SubscriptionDirectoryLoader` with `SubscriptionTable`'s rules (`SubscriptionFiling`).
/// Memory does not grow with the number of subscriptions: a lookup decodes one row, a list
/// its owner's rows, and `validate` compiles only the subscription it checks.
///
/// Threading: `Sendable`; reads run synchronously on the caller's thread (an indexed lookup
/// of a few rows); writes — the loader's batches, the publisher's read-your-writes updates —
/// are awaited on the store's writer.
public final class StoredSubscriptionDirectory: Sendable {
    public let store: SubscriptionStore
    let filing: SubscriptionFiling
    private let gate = ReadyGate()

    /// - Parameter partitions: the topic's partitions, to tell placed records from misplaced
    ///   copies; `nil`: every record counts, wherever it was read.
    public init(store: SubscriptionStore, rules: SubscriptionRules = SubscriptionRules(), partitions: Int32? = nil) {
        self.store = store
        filing = SubscriptionFiling(rules: rules, placement: partitions.map(SubscriptionPlacement.init(partitions:)))
    }

    /// Decodes and prepares a record for `apply(_:offsets:)` (any thread).
    public func prepare(key: String?, value: Data?) -> DirectoryRecord {
        DirectoryRecord(SubscriptionRecord(key: key, value: value, rules: filing.rules))
    }

    /// Files prepared records in their order, each with the partition it was read on, and
    /// saves `offsets`, in one transaction.
    /// - Returns: why each refused record was refused, by its position in `records`.
    /// - Throws: `ReaderError` when the database fails; then nothing was filed.
    public func apply(
        _ records: [(record: DirectoryRecord, partition: Int32?)], offsets: [ConsumedOffset]
    ) async throws -> [Int: Rejection.Reason] {
        let filing = filing
        return try await store.write("apply", offsets: offsets) { rows in
            var refused: [Int: Rejection.Reason] = [:]
            for (position, (record, partition)) in records.enumerated() {
                do {
                    try filing.apply(record, partition: partition, rows: rows)
                } catch let reason as Rejection.Reason {
                    refused[position] = reason
                }
            }
            return refused
        }
    }

    /// Files one record at once (the publisher's read-your-writes update, as read on its
    /// placement partition; the loader files the same record again when it reads it).
    /// - Parameter partition: where it was read; `nil`: on its placement partition.
    /// - Throws: `Rejection.Reason` for a record the directory refuses; `ReaderError` when the database fails.
    public func apply(key: String?, value: Data?, partition: Int32? = nil) async throws {
        let record = prepare(key: key, value: value)
        let filing = filing
        try await store.write("apply") { rows in try filing.apply(record, partition: partition, rows: rows) }
    }

    /// Removes a subscription by identity at once (an API deletion, ahead of its tombstones).
    /// - Throws: `ReaderError` when the database fails.
    public func remove(key: String) async throws {
        try await store.write("remove") { rows in try rows.delete(key: key) }
    }

    /// The key before per-user IDs under which `subscription` still has a record on the topic
    /// (read, not yet tombstoned), if any: deleting the subscription tombstones it too.
    /// - Throws: `ReaderError` when the database fails.
    public func oldKey(of subscription: Subscription) throws -> String? {
        let legacy = subscription.legacyPartitionKey
        let identity = try store.read("read old key") { rows in try rows.identity(ofOldKey: legacy) }
        return identity == subscription.partitionKey ? legacy : nil
    }

    /// The subscription of identity `key`, if any.
    /// - Throws: `ReaderError` when the database fails or the row does not decode.
    public func subscription(forKey key: String) throws -> Subscription? {
        guard let row = try store.read("read subscription", { rows in try rows.subscription(forKey: key) }) else { return nil }
        return try Self.decode(row)
    }

    /// Every subscription `owner` has in `container` and `database`, by ID (reads only theirs).
    /// - Throws: `ReaderError` when the database fails or a row does not decode.
    public func subscriptions(container: String, database: DatabaseScope, owner: String) throws -> [Subscription] {
        let scope = Subscription.placementKey(container: container, database: database, owner: owner)
        var subscriptions: [Subscription] = []
        for row in try store.read("list subscriptions", { rows in try rows.subscriptions(owner: scope) }) {
            subscriptions.append(try Self.decode(row))
        }
        return subscriptions.sorted { $0.subscriptionID < $1.subscriptionID }
    }

    /// Checks `subscription` against CloudKit's rules (compiling only it) and against its
    /// owner's other subscriptions (a replaced subscription with the same key is not a duplicate).
    /// - Throws: `MatcherError` (`INVALID_SUBSCRIPTION`, `INVALID_PREDICATE`,
    ///   `DUPLICATE_SUBSCRIPTION`); `ReaderError` when the database fails.
    public func validate(_ subscription: Subscription) throws {
        let identity = subscription.partitionKey
        _ = try filing.rules.prepareForUpsert(subscription, key: identity)
        let definition = try SubscriptionFiling.definitionDigest(subscription)
        let filing = filing
        try store.read("check duplicates") { rows in
            try filing.checkDuplicates(subscription, identity: identity, definition: definition, rows: rows)
        }
    }

    /// How many subscriptions the directory holds (counts every row: for tests and tools).
    /// - Throws: `ReaderError` when the database fails.
    public func count() throws -> Int {
        try store.read("count") { rows in try rows.count() }
    }

    /// Marks the directory caught up with the topic and releases every waiter.
    public func markReady() { gate.open() }

    public var isReady: Bool { gate.isReady }

    /// Returns once the directory has caught up with the topic.
    public func waitUntilReady() async { await gate.wait() }

    private static func decode(_ row: StoredSubscription) throws(ReaderError) -> Subscription {
        do {
            return try WireCodec().decode(Subscription.self, from: row.value)
        } catch {
            throw ReaderError(.internalError, "stored subscription '\(row.key)' does not decode: \(error)", operation: "read subscription")
        }
    }
}
