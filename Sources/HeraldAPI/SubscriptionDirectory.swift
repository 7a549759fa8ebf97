import HeraldMatcher
import HeraldModel

/// Every subscription as the API knows them (a directory fed by the compacted
/// `subscriptions` topic), for reading and for checking a subscription before it is
/// published. It lags the topic: a subscription just published may not be listed yet.
/// Called concurrently from request handlers. Its store can fail: each call may throw
/// (`ReaderError`, answered `INTERNAL_ERROR`).
public protocol SubscriptionDirectory: Sendable {
    /// The subscription of identity `key` (`Subscription.partitionKey`:
    /// `container/database/owner/subscriptionID`), if any.
    func subscription(forKey key: String) throws -> Subscription?
    /// Every subscription `owner` has in `container` and `database`, in any order.
    func subscriptions(container: String, database: DatabaseScope, owner: String) throws -> [Subscription]
    /// Checks `subscription` against CloudKit's rules (types per database, at most three
    /// desired keys, a predicate that compiles, …) and against the owner's other
    /// subscriptions (a replaced subscription with the same key is not a duplicate).
    /// - Throws: `MatcherError` (`INVALID_SUBSCRIPTION`, `INVALID_PREDICATE`,
    ///   `DUPLICATE_SUBSCRIPTION`), or the store's error.
    func validate(_ subscription: Subscription) throws
}
