/// Subscription keys by the hash of their definition without ID
/// (`SubscriptionRules.definition`), to refuse duplicates. A hash almost always has one
/// key, kept without an array (an array per subscription was ~60 bytes of each at 1M).
struct DefinitionKeys: Sendable {
    private enum Keys: Sendable {
        case one(String)
        case many([String])
    }

    private var byHash: [Int: Keys] = [:]

    /// The first key filed under `hash` that satisfies `predicate`.
    func first(_ hash: Int, where predicate: (String) -> Bool) -> String? {
        switch byHash[hash] {
        case .one(let key)?: predicate(key) ? key : nil
        case .many(let keys)?: keys.first(where: predicate)
        case nil: nil
        }
    }

    mutating func add(_ key: String, hash: Int) {
        switch byHash[hash] {
        case nil: byHash[hash] = .one(key)
        case .one(let other)?: byHash[hash] = .many([other, key])
        case .many(let keys)?: byHash[hash] = .many(keys + [key])
        }
    }

    mutating func remove(_ key: String, hash: Int) {
        switch byHash[hash] {
        case .one(let other)? where other == key: byHash[hash] = nil
        case .many(var keys)?:
            keys.removeAll { $0 == key }
            byHash[hash] = keys.count > 1 ? .many(keys) : keys.first.map(Keys.one)
        default: break
        }
    }
}
