import HeraldModel

/// The identity keys of each owner's subscriptions, by owner scope
/// (`Subscription.placementKey(container:database:owner:)`): listing one user's
/// subscriptions (the API's `GET` of a user's subscriptions, the 64 limit) reads theirs only,
/// not every subscription of the table (a million copies per request at 1M).
struct SubscriptionOwners: Sendable {
    /// Keys in insertion order; a user has a few (at most 64 through the API).
    private var keys: [String: [String]] = [:]

    static func scope(of subscription: Subscription) -> String {
        Subscription.placementKey(container: subscription.container, database: subscription.database, owner: subscription.ownerRecordName)
    }

    /// Files `key` under its subscription's owner (once).
    mutating func insert(_ key: String, of subscription: Subscription) {
        let scope = Self.scope(of: subscription)
        if keys[scope]?.contains(key) != true { keys[scope, default: []].append(key) }
    }

    /// Forgets `key` of its subscription's owner.
    mutating func remove(_ key: String, of subscription: Subscription) {
        let scope = Self.scope(of: subscription)
        keys[scope]?.removeAll { $0 == key }
        if keys[scope]?.isEmpty == true { keys[scope] = nil }
    }

    /// The keys of `owner`'s subscriptions in `container` and `database`.
    func keys(container: String, database: DatabaseScope, owner: String) -> [String] {
        keys[Subscription.placementKey(container: container, database: database, owner: owner)] ?? []
    }
}
