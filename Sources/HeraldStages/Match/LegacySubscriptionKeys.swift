/// What the subscription table remembers about records of the compacted `subscriptions`
/// topic keyed the way they were before subscription IDs were per user
/// (`container/database/subscriptionID`, `Subscription.legacyPartitionKey`), so that such a
/// topic is read as it is: an old-key record counts as its owner's subscription, and an
/// old-key tombstone, which has no value to name the owner, still deletes it.
///
/// A record under the new key always wins over one under the old key, whichever partition
/// the loader reads first; an old-key tombstone deletes only a subscription whose current
/// record came from that old key.
struct LegacySubscriptionKeys: Sendable {
    /// The identity (`Subscription.partitionKey`) last written under each old key, until the
    /// old key's tombstone.
    private var identities: [String: String] = [:]
    /// The old key of each identity whose current record came from an old key.
    private var origins: [String: String] = [:]

    /// What applying a record under an old key does to the index.
    enum Effect: Equatable {
        /// Add or replace `identity`, after removing `replaced` (another identity the old key held).
        case upsert(replaced: String?)
        /// Nothing: the identity has a record under its new key, which wins.
        case ignore
    }

    /// The identity the tombstone of `oldKey` deletes, if it deletes one; forgets `oldKey`.
    mutating func tombstone(oldKey: String) -> String? {
        guard let identity = identities.removeValue(forKey: oldKey) else { return nil }
        guard origins[identity] == oldKey else { return nil }
        origins[identity] = nil
        return identity
    }

    /// Whether `key` is an old key the table has seen a record under (and no tombstone since).
    func isOldKey(_ key: String) -> Bool { identities[key] != nil }

    /// What a record of `identity` under `oldKey` does, given whether the index holds `identity`.
    func effect(oldKey: String, identity: String, indexed: Bool) -> Effect {
        if indexed, origins[identity] == nil { return .ignore }
        if let previous = identities[oldKey], previous != identity, origins[previous] == oldKey {
            return .upsert(replaced: previous)
        }
        return .upsert(replaced: nil)
    }

    /// Records that `identity` was read under `oldKey`; `applied`: it is now the index's record.
    mutating func recordOldKey(_ oldKey: String, identity: String, applied: Bool) {
        if let previous = identities[oldKey], previous != identity, origins[previous] == oldKey { origins[previous] = nil }
        identities[oldKey] = identity
        if applied { origins[identity] = oldKey }
    }

    /// Records that `identity` now has a record under its new key (or is gone).
    mutating func recordNewKey(_ identity: String) {
        origins[identity] = nil
    }

    /// The old key still holding a record of `identity` on the topic, if any: deleting the
    /// subscription must tombstone it too, or a reload would bring it back.
    func oldKey(of identity: String, legacyKey: String) -> String? {
        identities[legacyKey] == identity ? legacyKey : nil
    }
}
