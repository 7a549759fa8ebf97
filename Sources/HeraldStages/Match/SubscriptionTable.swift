import Foundation
import HeraldKafka
import HeraldMatcher
import HeraldModel
import Synchronization

/// Every subscription in memory, for tools, tests and the benchmarks' baseline: a copy of the
/// whole compacted `subscriptions` topic, keyed by identity (`Subscription.partitionKey`:
/// container, database, owner, ID). Records under the keys used before per-user IDs are read
/// too (`LegacySubscriptionKeys`). (The match stage holds only its partitions':
/// `PlacedSubscriptionTable`; the API keeps every subscription in SQLite,
/// `StoredSubscriptionDirectory`, which files records by this table's rules.)
///
/// With `partitions`, the table knows placement (docs/ARCHITECTURE.md §9): a record on its
/// placement partition wins over a copy of the same key on another partition (written before
/// placement, and re-placed by the match stage), whichever is read first, and a tombstone
/// deletes only the record of its own partition.
public final class SubscriptionTable: Sendable {
    private struct State: Sendable {
        var index: SubscriptionIndex
        var legacy = LegacySubscriptionKeys()
        /// The partition of each identity whose current record is not on its placement partition.
        var misplaced: [String: Int32] = [:]
        var owners = SubscriptionOwners()

        mutating func upsert(_ prepared: PreparedSubscription) throws(MatcherError) {
            try index.upsert(prepared)
            owners.insert(prepared.key, of: prepared.subscription)
        }

        mutating func remove(key: String) {
            guard let old = index.subscription(forKey: key) else { return }
            index.remove(key: key)
            owners.remove(key, of: old)
        }
    }

    private let state: Mutex<State>
    private let gate = ReadyGate()
    private let placement: SubscriptionPlacement?
    private let rules: SubscriptionRules

    /// - Parameter partitions: the topic's partitions, to tell placed records from misplaced
    ///   copies; `nil`: every record counts, wherever it was read.
    public init(rules: SubscriptionRules = SubscriptionRules(), partitions: Int32? = nil) {
        state = Mutex(State(index: SubscriptionIndex(rules: rules)))
        placement = partitions.map(SubscriptionPlacement.init(partitions:))
        self.rules = rules
    }

    /// Decodes and prepares a record for `apply(_:partition:)` without the table's lock (any thread).
    public func prepare(key: String?, value: Data?) -> SubscriptionRecord {
        SubscriptionRecord(key: key, value: value, rules: rules)
    }

    /// Applies one record of the compacted topic: a subscription, or a tombstone (nil), under
    /// its key or under the key it had before per-user IDs (`Subscription.legacyPartitionKey`).
    /// - Parameter partition: where it was read; `nil`: on its placement partition.
    /// - Throws: `Rejection.Reason` for undecodable or invalid subscriptions, or a key that is
    ///   neither of the two (the table is unchanged).
    public func apply(key: String?, value: Data?, partition: Int32? = nil) throws(Rejection.Reason) {
        try apply(prepare(key: key, value: value), partition: partition)
    }

    /// Applies a record prepared by `prepare(key:value:)`, as `apply(key:value:partition:)` does.
    /// - Throws: `Rejection.Reason` as `apply(key:value:partition:)` does (the table is unchanged).
    public func apply(_ record: SubscriptionRecord, partition: Int32? = nil) throws(Rejection.Reason) {
        let key = record.key
        guard let subscription = try record.subscription() else {
            guard let key else { throw .invalid("a tombstone without a key") }
            state.withLock { state in
                if state.legacy.isOldKey(key) {
                    if let identity = state.legacy.tombstone(oldKey: key) { state.remove(key: identity) }
                } else if deletes(state, key: key, partition: partition) {
                    state.remove(key: key)
                    state.misplaced[key] = nil
                    state.legacy.recordNewKey(key)
                }
            }
            return
        }
        let identity = record.identity ?? subscription.partitionKey
        let oldKey = key != identity && key == subscription.legacyPartitionKey ? key : nil
        if let key, key != identity, oldKey == nil {
            throw .invalid("key '\(key)' is not the subscription's key '\(identity)' (nor its pre-per-user key '\(subscription.legacyPartitionKey)')")
        }
        do {
            try state.withLock { (state: inout State) throws(MatcherError) in
                guard let oldKey else {
                    var misplaced: Int32?
                    if let partition, let placement, placement.partition(of: subscription) != partition {
                        // A copy off its placement never replaces the placed record.
                        guard state.index.subscription(forKey: identity) == nil || state.misplaced[identity] != nil else { return }
                        misplaced = partition
                    }
                    // Only once filed: a refused record (a duplicate) leaves the table unchanged.
                    try state.upsert(record.prepared(subscription, rules: rules))
                    state.misplaced[identity] = misplaced
                    state.legacy.recordNewKey(identity)
                    return
                }
                let indexed = state.index.subscription(forKey: identity) != nil
                switch state.legacy.effect(oldKey: oldKey, identity: identity, indexed: indexed) {
                case .ignore:
                    state.legacy.recordOldKey(oldKey, identity: identity, applied: false)
                case .upsert(let replaced):
                    try state.upsert(record.prepared(subscription, rules: rules))
                    if let replaced { state.remove(key: replaced) }
                    state.legacy.recordOldKey(oldKey, identity: identity, applied: true)
                }
            }
        } catch {
            throw Rejection.Reason(code: error.code.rawValue, error.reason)
        }
    }

    /// Whether a tombstone of `key` read on `partition` deletes the current record: only the
    /// record of that partition (a misplaced copy's tombstone leaves the placed record).
    private func deletes(_ state: State, key: String, partition: Int32?) -> Bool {
        guard let partition, let placement else { return true }
        if let elsewhere = state.misplaced[key] { return elsewhere == partition }
        guard let current = state.index.subscription(forKey: key) else { return true }
        return placement.partition(of: current) == partition
    }

    /// The key before per-user IDs under which `subscription` still has a record on the topic
    /// (read, not yet tombstoned), if any: deleting the subscription tombstones it too.
    public func oldKey(of subscription: Subscription) -> String? {
        state.withLock { $0.legacy.oldKey(of: subscription.partitionKey, legacyKey: subscription.legacyPartitionKey) }
    }

    /// Every subscription this change fires.
    public func matches(for change: RecordChange) -> [Match] {
        state.withLock { $0.index.matches(for: change) }
    }

    /// Removes a subscription locally by identity (a fires-once retirement or an API
    /// deletion, ahead of its tombstones).
    public func remove(key: String) {
        state.withLock { state in
            state.remove(key: key)
            state.misplaced[key] = nil
            state.legacy.recordNewKey(key)
        }
    }

    public var count: Int { state.withLock { $0.index.count } }

    /// Every subscription `owner` has in `container` and `database`, by ID (reads only theirs).
    public func subscriptions(container: String, database: DatabaseScope, owner: String) -> [Subscription] {
        state.withLock { state in
            state.owners.keys(container: container, database: database, owner: owner).compactMap(state.index.subscription(forKey:))
        }.sorted { $0.subscriptionID < $1.subscriptionID }
    }

    /// Reads the index under the table's lock.
    public func withIndex<T, E: Error>(_ body: (SubscriptionIndex) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state: inout State) throws(E) -> T in try body(state.index) }
    }

    /// Marks the table caught up with the topic (compacting the index) and releases every waiter.
    public func markReady() {
        state.withLock { $0.index.compact() }
        gate.open()
    }

    public var isReady: Bool { gate.isReady }

    /// Returns once the table has caught up with the topic.
    public func waitUntilReady() async {
        await gate.wait()
    }
}
