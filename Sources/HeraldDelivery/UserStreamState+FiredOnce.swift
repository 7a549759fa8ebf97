import HeraldModel

extension UserStreamState {
    /// How many fired fires-once subscriptions a state remembers; beyond it, the one that
    /// fired first is forgotten. The match stage retires a fires-once subscription with a
    /// tombstone as it fires, so this is only the guard against a second match of it in
    /// flight (another partition's copy, a replay), which comes soon after the first.
    public static let firedOnceLimit = 1024

    /// What `firedOnce` holds for this save of a fires-once subscription: its key, U+001F and
    /// its revision in decimal; the key alone for one saved without a revision (IDs saved
    /// through the API hold no control character).
    static func firedOnceEntry(_ subscription: Subscription) -> String {
        guard let revision = subscription.revision else { return subscription.partitionKey }
        return subscription.partitionKey + "\u{1F}" + String(revision)
    }

    /// Whether this save of a fires-once subscription already fired for the user. One saved
    /// again after it fired has a new revision, so it is a new subscription and fires again
    /// (CloudKit deletes a fires-once subscription after its first notification).
    func hasFired(_ subscription: Subscription) -> Bool {
        if subscription.revision != nil { return firedOnce.contains(Self.firedOnceEntry(subscription)) }
        return firedOnce.contains(subscription.partitionKey) || firedOnce.contains(subscription.legacyPartitionKey)
    }

    /// Remembers that this save of a fires-once subscription fired, in place of any earlier
    /// save of it (they can no longer fire: this one replaced them), keeping at most
    /// `firedOnceLimit` entries.
    mutating func recordFired(_ subscription: Subscription) {
        let key = subscription.partitionKey
        let legacyKey = subscription.legacyPartitionKey
        let revisionPrefix = key + "\u{1F}"
        firedOnce.removeAll { $0 == key || $0 == legacyKey || $0.hasPrefix(revisionPrefix) }
        firedOnce.append(Self.firedOnceEntry(subscription))
        if firedOnce.count > Self.firedOnceLimit { firedOnce.removeFirst(firedOnce.count - Self.firedOnceLimit) }
    }
}
