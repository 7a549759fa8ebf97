import Crypto
import Foundation
import HeraldMatcher
import HeraldModel
import HeraldReader

/// How a record of the compacted `subscriptions` topic changes a `SubscriptionStore`'s rows:
/// `SubscriptionTable.apply(_:partition:)`'s rules, on SQLite rows instead of an index in
/// memory — a record under its own key or under the key before per-user IDs
/// (`LegacySubscriptionKeys`: the `legacyKey` table and each row's `oldKey`), a placed record
/// winning over a misplaced copy (each row's `misplacedPartition`), tombstones deleting only
/// what their key and partition name, and CloudKit's rules and duplicate check
/// (`SubscriptionIndex`) with the owner's other rows of the same definition digest.
struct SubscriptionFiling: Sendable {
    let rules: SubscriptionRules
    /// `nil`: every record counts as placed, wherever it was read.
    let placement: SubscriptionPlacement?

    /// Files one record read on `partition` (`nil`: its placement partition).
    /// - Throws: `Rejection.Reason` for an undecodable or invalid record (the rows are
    ///   unchanged); any other error is the database's.
    func apply(_ prepared: DirectoryRecord, partition: Int32?, rows: SubscriptionRows) throws {
        let (record, key) = (prepared.record, prepared.record.key)
        guard let subscription = try record.subscription() else {
            guard let key else { throw Rejection.Reason.invalid("a tombstone without a key") }
            try tombstone(key, partition: partition, rows: rows)
            return
        }
        let identity = record.identity ?? subscription.partitionKey
        let oldKey = key != identity && key == subscription.legacyPartitionKey ? key : nil
        if let key, key != identity, oldKey == nil {
            throw Rejection.Reason.invalid(
                "key '\(key)' is not the subscription's key '\(identity)' (nor its pre-per-user key '\(subscription.legacyPartitionKey)')")
        }
        do {
            let existing = try rows.origin(ofKey: identity)
            guard let oldKey else {
                var misplaced: Int32?
                if let partition, let placement, placement.partition(of: subscription) != partition {
                    // A copy off its placement never replaces the placed record.
                    guard existing == nil || existing?.misplacedPartition != nil else { return }
                    misplaced = partition
                }
                try save(prepared, subscription, identity: identity, misplaced: misplaced, oldKey: nil, rows: rows)
                return
            }
            let previous = try rows.identity(ofOldKey: oldKey)
            var previousHeld = false
            if let previous, previous != identity { previousHeld = try rows.origin(ofKey: previous)?.oldKey == oldKey }
            if existing != nil, existing?.oldKey == nil {
                // The identity has a record under its own key, which wins.
                if let previous, previousHeld { try rows.clearOldKey(of: previous) }
            } else {
                try save(prepared, subscription, identity: identity, misplaced: existing?.misplacedPartition, oldKey: oldKey, rows: rows)
                if let previous, previousHeld { try rows.delete(key: previous) }
            }
            try rows.record(oldKey: oldKey, identity: identity)
        } catch let error as MatcherError {
            throw Rejection.Reason(code: error.code.rawValue, error.reason)
        } catch let error as ModelError {
            throw Rejection.Reason.invalid("cannot encode the subscription's definition: \(error)")
        }
    }

    /// A tombstone of `key`: of an old key, it deletes the identity whose current record came
    /// from it; of an identity, the record of `partition` only (a misplaced copy's tombstone
    /// leaves the placed record).
    private func tombstone(_ key: String, partition: Int32?, rows: SubscriptionRows) throws {
        if let identity = try rows.identity(ofOldKey: key) {
            try rows.forget(oldKey: key)
            if try rows.origin(ofKey: identity)?.oldKey == key { try rows.delete(key: identity) }
            return
        }
        guard let current = try rows.subscription(forKey: key) else { return }
        if let partition, let placement {
            if let elsewhere = current.misplacedPartition {
                guard elsewhere == partition else { return }
            } else if let subscription = try? WireCodec().decode(Subscription.self, from: current.value),
                      placement.partition(of: subscription) != partition {
                return
            }
        }
        try rows.delete(key: key)
    }

    /// Checks the rules and the owner's other subscriptions, then writes the row.
    private func save(
        _ prepared: DirectoryRecord, _ subscription: Subscription, identity: String, misplaced: Int32?, oldKey: String?,
        rows: SubscriptionRows
    ) throws {
        let record = prepared.record
        _ = try record.prepared(subscription, rules: rules)
        let definition = try prepared.definition ?? Self.definitionDigest(subscription)
        try checkDuplicates(subscription, identity: identity, definition: definition, rows: rows)
        let value = try record.value ?? WireCodec().encode(subscription)
        try rows.save(StoredSubscription(
            key: identity, owner: SubscriptionOwners.scope(of: subscription), definition: definition,
            misplacedPartition: misplaced, oldKey: oldKey, value: value))
    }

    /// Refuses `subscription` when another of its owner's subscriptions (another key) has the
    /// same definition, as `SubscriptionIndex` does.
    /// - Throws: `MatcherError` (`DUPLICATE_SUBSCRIPTION`) naming the other; the database's errors.
    func checkDuplicates(_ subscription: Subscription, identity: String, definition: String, rows: SubscriptionRows) throws {
        let mine = SubscriptionRules.definition(subscription)
        for other in try rows.subscriptions(owner: SubscriptionOwners.scope(of: subscription), definition: definition)
        where other.key != identity {
            guard let decoded = try? WireCodec().decode(Subscription.self, from: other.value),
                  SubscriptionRules.definition(decoded) == mine
            else { continue }
            throw MatcherError.duplicate(subscription, of: decoded)
        }
    }

    /// A digest of `SubscriptionRules.definition(subscription)`'s wire JSON (sorted keys:
    /// equal definitions encode alike), stable across processes — unlike `Hasher`, which the
    /// in-memory index uses — since it is stored.
    static func definitionDigest(_ subscription: Subscription) throws -> String {
        let encoded = try WireCodec().encode(SubscriptionRules.definition(subscription))
        return Data(SHA256.hash(data: encoded).prefix(16)).base64EncodedString()
    }
}
