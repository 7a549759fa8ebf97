/// Subscriptions by the hash of their definition without ID (`SubscriptionRules.definitionHash`),
/// to refuse duplicates. A hash almost always has one subscription, kept without an array
/// (an array per subscription was ~60 bytes of each at 1M), and as a reference (8 bytes)
/// rather than its key (16).
struct DefinitionKeys: Sendable {
    private enum Entries: Sendable {
        case one(IndexedSubscription)
        case many([IndexedSubscription])
    }

    private var byHash: [Int: Entries] = [:]

    /// The first subscription filed under `hash` that satisfies `predicate`.
    func first(_ hash: Int, where predicate: (IndexedSubscription) -> Bool) -> IndexedSubscription? {
        switch byHash[hash] {
        case .one(let subscription)?: predicate(subscription) ? subscription : nil
        case .many(let subscriptions)?: subscriptions.first(where: predicate)
        case nil: nil
        }
    }

    mutating func add(_ subscription: IndexedSubscription, hash: Int) {
        switch byHash[hash] {
        case nil: byHash[hash] = .one(subscription)
        case .one(let other)?: byHash[hash] = .many([other, subscription])
        case .many(let subscriptions)?: byHash[hash] = .many(subscriptions + [subscription])
        }
    }

    /// Removes the subscription of `key` filed under `hash`.
    mutating func remove(_ key: String, hash: Int) {
        switch byHash[hash] {
        case .one(let other)? where other.key == key: byHash[hash] = nil
        case .many(var subscriptions)?:
            subscriptions.removeAll { $0.key == key }
            byHash[hash] = subscriptions.count > 1 ? .many(subscriptions) : subscriptions.first.map(Entries.one)
        default: break
        }
    }
}
