import Foundation
import HeraldKafka
import HeraldMatcher
import HeraldModel
import Synchronization

/// The match stage's copy of every subscription, shared by the table loader (writer) and
/// the match processor (reader), keyed by identity (`Subscription.partitionKey`:
/// container, database, owner, ID). Records under the keys used before per-user IDs are read
/// too (`LegacySubscriptionKeys`).
public final class SubscriptionTable: Sendable {
    private struct State: Sendable {
        var index: SubscriptionIndex
        var legacy = LegacySubscriptionKeys()
    }

    private let state: Mutex<State>
    private let gate = ReadyGate()

    public init(rules: SubscriptionRules = SubscriptionRules()) {
        state = Mutex(State(index: SubscriptionIndex(rules: rules)))
    }

    /// Applies one record of the compacted topic: a subscription, or a tombstone (nil), under
    /// its key or under the key it had before per-user IDs (`Subscription.legacyPartitionKey`).
    /// - Throws: `Rejection.Reason` for undecodable or invalid subscriptions, or a key that is
    ///   neither of the two (the table is unchanged).
    public func apply(key: String?, value: Data?) throws(Rejection.Reason) {
        guard let value else {
            guard let key else { throw .invalid("a tombstone without a key") }
            state.withLock { state in
                if state.legacy.isOldKey(key) {
                    if let identity = state.legacy.tombstone(oldKey: key) { state.index.remove(key: identity) }
                } else {
                    state.index.remove(key: key)
                    state.legacy.recordNewKey(key)
                }
            }
            return
        }
        let subscription: Subscription
        do {
            subscription = try WireCodec().decode(Subscription.self, from: value)
        } catch {
            throw .undecodable("\(error)")
        }
        let identity = subscription.partitionKey
        let oldKey = key == subscription.legacyPartitionKey && key != identity ? key : nil
        if let key, key != identity, oldKey == nil {
            throw .invalid("key '\(key)' is not the subscription's key '\(identity)' (nor its pre-per-user key '\(subscription.legacyPartitionKey)')")
        }
        do {
            try state.withLock { (state: inout State) throws(MatcherError) in
                guard let oldKey else {
                    try state.index.upsert(subscription)
                    state.legacy.recordNewKey(identity)
                    return
                }
                let indexed = state.index.subscription(forKey: identity) != nil
                switch state.legacy.effect(oldKey: oldKey, identity: identity, indexed: indexed) {
                case .ignore:
                    state.legacy.recordOldKey(oldKey, identity: identity, applied: false)
                case .upsert(let replaced):
                    try state.index.upsert(subscription)
                    if let replaced { state.index.remove(key: replaced) }
                    state.legacy.recordOldKey(oldKey, identity: identity, applied: true)
                }
            }
        } catch {
            throw Rejection.Reason(code: error.code.rawValue, error.reason)
        }
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
            state.index.remove(key: key)
            state.legacy.recordNewKey(key)
        }
    }

    public var count: Int { state.withLock { $0.index.count } }

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
