import HeraldModel

/// A subscription checked against the rules, its predicate compiled and planned, and the
/// hash of its definition taken: all of an upsert that does not read the index. A loader
/// prepares many at once, on every core and off the table's lock, then files each
/// (`SubscriptionIndex.upsert(_:)` of a prepared one), which only checks for duplicates and
/// inserts.
public struct PreparedSubscription: Sendable {
    /// The subscription as decoded.
    public let subscription: Subscription
    /// The rules it was checked against.
    let rules: SubscriptionRules
    let indexed: IndexedSubscription
    /// Where the index files its query (`nil`: a residual, or not a query subscription).
    let plan: IndexPlan?
    /// `SubscriptionRules.definitionHash`, to find duplicates.
    let definition: Int

    /// The key of the subscription in the compacted topic.
    public var key: String { indexed.key }
}

extension SubscriptionRules {
    /// Checks and compiles `subscription` for an index with these rules; reads no index, so
    /// any thread may call it.
    /// - Parameter key: the subscription's `partitionKey` when the caller made it already
    ///   (a loader, to make it once per record); `nil`: made here.
    /// - Throws: `MatcherError` naming what is wrong (as `SubscriptionIndex.upsert` would).
    public func prepareForUpsert(_ subscription: Subscription, key: String? = nil) throws(MatcherError) -> PreparedSubscription {
        let (indexed, plan) = try prepareForIndex(subscription, key: key)
        return PreparedSubscription(
            subscription: subscription, rules: self, indexed: indexed, plan: plan,
            definition: Self.definitionHash(subscription, infoHash: indexed.info.hash))
    }
}

extension SubscriptionIndex {
    /// `SubscriptionRules.prepareForUpsert` with this index's rules.
    /// - Throws: `MatcherError` naming what is wrong.
    public func prepare(_ subscription: Subscription) throws(MatcherError) -> PreparedSubscription {
        try rules.prepareForUpsert(subscription)
    }
}
