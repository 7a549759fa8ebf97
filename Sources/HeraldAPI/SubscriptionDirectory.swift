import HeraldMatcher
import HeraldModel

/// The subscriptions as the match stage knows them (its live table, fed by the compacted
/// `subscriptions` topic), for reading and for checking a subscription before it is
/// published. It lags the topic: a subscription just published may not be listed yet.
/// Called concurrently from request handlers.
public protocol SubscriptionDirectory: Sendable {
    /// The subscription of identity `key` (`Subscription.partitionKey`:
    /// `container/database/owner/subscriptionID`), if any.
    func subscription(forKey key: String) -> Subscription?
    /// Every subscription `owner` has in `container` and `database`, in any order.
    func subscriptions(container: String, database: DatabaseScope, owner: String) -> [Subscription]
    /// Checks `subscription` against CloudKit's rules (types per database, at most three
    /// desired keys, a predicate that compiles, …) and against the owner's other
    /// subscriptions (a replaced subscription with the same key is not a duplicate).
    /// - Throws: `MatcherError` (`INVALID_SUBSCRIPTION`, `INVALID_PREDICATE`,
    ///   `DUPLICATE_SUBSCRIPTION`).
    func validate(_ subscription: Subscription) throws(MatcherError)
}
