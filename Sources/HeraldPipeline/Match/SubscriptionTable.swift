import Foundation
import HeraldKafka
import HeraldMatcher
import HeraldModel
import Synchronization

/// The match stage's copy of every subscription, shared by the table loader (writer) and
/// the match processor (reader).
public final class SubscriptionTable: Sendable {
    private let index: Mutex<SubscriptionIndex>
    private let gate = ReadyGate()

    public init(rules: SubscriptionRules = SubscriptionRules()) {
        index = Mutex(SubscriptionIndex(rules: rules))
    }

    /// Applies one record of the compacted topic: a subscription, or a tombstone (nil).
    /// - Throws: `Rejection.Reason` for undecodable or invalid subscriptions (the table is unchanged).
    public func apply(key: String?, value: Data?) throws(Rejection.Reason) {
        guard let value else {
            guard let key else { throw .invalid("a tombstone without a key") }
            index.withLock { $0.remove(key: key) }
            return
        }
        let subscription: Subscription
        do {
            subscription = try WireCodec().decode(Subscription.self, from: value)
        } catch {
            throw .undecodable("\(error)")
        }
        if let key, key != subscription.partitionKey {
            throw .invalid("key '\(key)' is not the subscription's key '\(subscription.partitionKey)'")
        }
        do {
            try index.withLock { (index: inout SubscriptionIndex) throws(MatcherError) in try index.upsert(subscription) }
        } catch {
            throw Rejection.Reason(code: error.code.rawValue, error.reason)
        }
    }

    /// Every subscription this change fires.
    public func matches(for change: RecordChange) -> [Match] {
        index.withLock { $0.matches(for: change) }
    }

    /// Removes a subscription locally (a fires-once retirement, ahead of its tombstone).
    public func remove(key: String) {
        index.withLock { $0.remove(key: key) }
    }

    public var count: Int { index.withLock { $0.count } }

    /// Reads the index under the table's lock.
    public func withIndex<T, E: Error>(_ body: (SubscriptionIndex) throws(E) -> T) throws(E) -> T {
        try index.withLock { (index: inout SubscriptionIndex) throws(E) -> T in try body(index) }
    }

    /// Marks the table caught up with the topic (compacting the index) and releases every waiter.
    public func markReady() {
        index.withLock { $0.compact() }
        gate.open()
    }

    public var isReady: Bool { gate.isReady }

    /// Returns once the table has caught up with the topic.
    public func waitUntilReady() async {
        await gate.wait()
    }
}
