import Foundation
import HeraldMatcher
import HeraldModel

/// One record of the compacted `subscriptions` topic, decoded and — when it is stored under
/// its own key — its subscription checked and compiled (`PreparedSubscription`), before any
/// table's lock is taken: the loaders prepare a batch on every core
/// (`ParallelBatch`) and the tables only file each record (`SubscriptionTable.apply(_:partition:)`,
/// `PlacedSubscriptionTable.apply(_:partition:epoch:)`), in the topic's order.
///
/// Preparing never fails: what does not decode or breaks a rule is kept, and thrown by the
/// table exactly where filing it directly would have thrown.
///
/// A class: a batch's records are handed from the preparing tasks to the filing loop in
/// arrays, and copying this many fields (each a retain, then a release) was a tenth of a
/// load's CPU time; a reference is one.
public final class SubscriptionRecord: Sendable {
    public let key: String?
    /// `nil`: a tombstone.
    public let value: Data?
    /// The subscription, or why the value does not decode (`nil`: a tombstone).
    private let decoded: Result<Subscription, Rejection.Reason>?
    /// For a subscription stored under its own key (or none): prepared, or the rule it breaks.
    private let prepared: Result<PreparedSubscription, MatcherError>?
    /// The decoded subscription's `Subscription.partitionKey` (made here, off the lock).
    public let identity: String?
    /// The decoded subscription's `Subscription.placementKey` (made here, off the lock).
    public let placementKey: String?

    /// Decodes `value` and prepares its subscription with `rules` (those of the index it is filed in).
    public init(key: String?, value: Data?, rules: SubscriptionRules) {
        self.key = key
        self.value = value
        guard let value else {
            (decoded, prepared, identity, placementKey) = (nil, nil, nil, nil)
            return
        }
        do {
            let subscription = try WireCodec().decode(Subscription.self, from: value)
            let identity = subscription.partitionKey
            decoded = .success(subscription)
            self.identity = identity
            // A public subscription is placed by its own key: not made a second time.
            placementKey = subscription.database == .public ? identity : subscription.placementKey
            prepared = key == nil || key == identity
                ? Result { () throws(MatcherError) in try rules.prepareForUpsert(subscription, key: identity) } : nil
        } catch {
            decoded = .failure(.undecodable("\(error)"))
            (prepared, identity, placementKey) = (nil, nil, nil)
        }
    }

    /// The decoded subscription; `nil` for a tombstone.
    /// - Throws: `Rejection.Reason` (`undecodable`) for a value that does not decode.
    public func subscription() throws(Rejection.Reason) -> Subscription? {
        try decoded?.get()
    }

    /// The decoded subscription's `identity` and `placementKey`, read without copying the
    /// subscription (a retain and a release of each of its fields per record filed); `nil`
    /// for a tombstone.
    /// - Throws: `Rejection.Reason` (`undecodable`) for a value that does not decode.
    public func decodedKeys() throws(Rejection.Reason) -> (identity: String, placementKey: String)? {
        switch decoded {
        case nil: return nil
        case .failure(let reason): throw reason
        case .success:
            guard let identity, let placementKey else { preconditionFailure("a decoded record without its keys") }
            return (identity, placementKey)
        }
    }

    /// `prepared(_:rules:)` for a decoded record, without the subscription at hand.
    /// - Throws: `MatcherError` for a subscription that breaks a rule.
    func prepared(rules: SubscriptionRules) throws(MatcherError) -> PreparedSubscription {
        if let prepared { return try prepared.get() }
        guard case .success(let subscription) = decoded else { preconditionFailure("a record prepared without a subscription") }
        return try rules.prepareForUpsert(subscription, key: identity)
    }

    /// The subscription prepared for an index with `rules` (prepared now if it was not yet:
    /// a record under another key than its own).
    /// - Throws: `MatcherError` for a subscription that breaks a rule.
    func prepared(_ subscription: Subscription, rules: SubscriptionRules) throws(MatcherError) -> PreparedSubscription {
        if let prepared { return try prepared.get() }
        return try rules.prepareForUpsert(subscription, key: identity)
    }
}
