import HeraldModel

/// Every subscription, indexed so that a record change visits only the subscriptions that
/// could fire for it.
///
/// Query subscriptions are bucketed by (container, database, record type, and the owner in
/// private databases), then filed inside their bucket by the selective part of their
/// predicate (`QueryIndex`: hashed values, numeric ranges, prefixes, suffixes, runs of
/// characters, tokens, geo cells); only the candidates this yields, plus the bucket's residuals, are
/// evaluated. Zone subscriptions are bucketed by zone, database subscriptions by owner.
public struct SubscriptionIndex: Sendable {
    public let rules: SubscriptionRules
    /// By identity (`Subscription.partitionKey`: container, database, owner, ID).
    private var byKey: [String: IndexedSubscription] = [:]
    private var queries: [QueryBucket: QueryIndex] = [:]
    private var zones: [ZoneBucket: [String: IndexedSubscription]] = [:]
    private var databases: [DatabaseBucket: [String: IndexedSubscription]] = [:]
    /// Subscription keys by the hash of their definition without ID, to refuse duplicates.
    private var definitions = DefinitionKeys()
    /// One copy of each notification info and `firesOn` list the subscriptions share.
    private var parts = SharedParts()

    /// Off: evaluate every query subscription of a bucket (the baseline of `herald bench
    /// matcher` and the tests' brute-force oracle). Default: on.
    public var usesPredicateIndex = true

    /// Hashes posting keys for every bucket (one random seed per index).
    private let hasher: PostingHasher

    public init(rules: SubscriptionRules = SubscriptionRules()) {
        self.init(rules: rules, hashBits: 64)
    }

    /// An index whose posting hashes keep only `hashBits` bits: tests use few, so that
    /// unrelated keys collide and exactness under collisions is exercised.
    init(rules: SubscriptionRules, hashBits: Int) {
        self.rules = rules
        hasher = PostingHasher(bits: hashBits)
    }

    public var count: Int { byKey.count }

    public func subscription(forKey key: String) -> Subscription? { byKey[key]?.subscription }

    public var all: [Subscription] { byKey.values.map(\.subscription) }

    /// Checks a subscription against the rules and the owner's other subscriptions, without adding it.
    /// - Throws: `MatcherError`, e.g. `duplicateSubscription` naming the existing one.
    public func validate(_ subscription: Subscription) throws(MatcherError) -> IndexedSubscription {
        try validated(prepare(subscription)).prepared
    }

    /// The prepared subscription and the hash of its definition (computed once per upsert,
    /// by `prepare`, possibly on another thread).
    private func validated(
        _ made: PreparedSubscription
    ) throws(MatcherError) -> (prepared: IndexedSubscription, plan: IndexPlan?, definition: Int) {
        let (subscription, prepared, plan, hash) = (made.subscription, made.indexed, made.plan, made.definition)
        let duplicate = definitions.first(hash) { other in
            other.key != prepared.key
                && SubscriptionRules.definition(other.subscription) == SubscriptionRules.definition(subscription)
        }
        if let other = duplicate?.subscription { throw MatcherError.duplicate(subscription, of: other) }
        return (prepared, plan, hash)
    }

    /// Adds or replaces a subscription (the compacted topic's upsert).
    /// - Throws: `MatcherError` when it breaks a rule; the index is then unchanged.
    public mutating func upsert(_ subscription: Subscription) throws(MatcherError) {
        try upsert(prepare(subscription))
    }

    /// Adds or replaces a subscription prepared by `prepare` (of an index with the same
    /// rules: one prepared under other rules is prepared again).
    /// - Throws: `MatcherError` when it duplicates another subscription; the index is then unchanged.
    public mutating func upsert(_ made: PreparedSubscription) throws(MatcherError) {
        guard made.rules.strictCloudKit == rules.strictCloudKit else { return try upsert(made.subscription) }
        let subscription = made.subscription
        let (validated, plan, definition) = try validated(made)
        remove(key: validated.key)
        // A query subscription knows its slot in its bucket (the bucket keeps no key → slot map).
        let entries = subscription.subscriptionType == .query ? uniqueQueries(QueryBucket(subscription)) : nil
        let prepared = parts.adopt(validated, slot: entries?.nextSlot ?? -1)
        byKey[prepared.key] = prepared
        definitions.add(prepared, hash: definition)
        switch subscription.subscriptionType {
        case .query: entries?.insert(prepared, plan: plan)
        case .zone: zones[ZoneBucket(subscription), default: [:]][prepared.key] = prepared
        case .database: databases[DatabaseBucket(subscription), default: [:]][prepared.key] = prepared
        }
    }

    /// The bucket's query index, created if absent and copied first if another
    /// `SubscriptionIndex` value shares it (copy-on-write), found with one lookup (filing
    /// hashed the bucket three times: a tenth of filing a subscription while loading).
    private mutating func uniqueQueries(_ bucket: QueryBucket) -> QueryIndex {
        guard let position = queries.index(forKey: bucket) else {
            let entries = QueryIndex(hasher: hasher)
            queries[bucket] = entries
            return entries
        }
        if !isKnownUniquelyReferenced(&queries.values[position]) { queries.values[position] = queries.values[position].copy() }
        return queries.values[position]
    }

    /// Removes a subscription (a tombstone); removing an unknown key does nothing.
    public mutating func remove(key: String) {
        guard let old = byKey.removeValue(forKey: key) else { return }
        parts.release(old)
        let subscription = old.subscription
        definitions.remove(key, hash: SubscriptionRules.definitionHash(subscription, infoHash: old.info.hash))
        switch subscription.subscriptionType {
        case .query:
            let plan = rules.plan(of: subscription)
            mutateQueries(QueryBucket(subscription)) { $0.remove(old, plan: plan) }
        case .zone: Self.remove(key, from: &zones, bucket: ZoneBucket(subscription))
        case .database: Self.remove(key, from: &databases, bucket: DatabaseBucket(subscription))
        }
    }

    /// Reorganizes the index for matching after many insertions (e.g. once the compacted
    /// topic is loaded): each range index becomes one run. Matching is correct either way.
    public mutating func compact() {
        for bucket in Array(queries.keys) { mutateQueries(bucket) { $0.compact() } }
    }

    /// Mutates one bucket's query index, copying it first if another `SubscriptionIndex`
    /// value shares it (copy-on-write); drops the bucket when it ends up empty.
    private mutating func mutateQueries(_ bucket: QueryBucket, _ body: (QueryIndex) -> Void) {
        var entries = queries.removeValue(forKey: bucket) ?? QueryIndex(hasher: hasher)
        if !isKnownUniquelyReferenced(&entries) { entries = entries.copy() }
        body(entries)
        if !entries.isEmpty { queries[bucket] = entries }
    }

    private static func remove<Bucket: Hashable>(
        _ key: String, from buckets: inout [Bucket: [String: IndexedSubscription]], bucket: Bucket
    ) {
        buckets[bucket]?[key] = nil
        if buckets[bucket]?.isEmpty == true { buckets[bucket] = nil }
    }

    /// Calls `body` with every subscription the change fires, with the kind of notification
    /// and, for query subscriptions, the reason (docs/cloudkit-behaviour.md §1); in no particular order.
    public func forEachFired(by change: RecordChange, _ body: (FiredSubscription) -> Void) {
        if let entries = queries[QueryBucket(change)] {
            let slots = usesPredicateIndex
                ? entries.candidates(change.fields, previous: change.previousFields)
                : entries.subscriptions.indices.map(Int32.init)
            let records = ChangeRecords(change)
            entries.forEachSubscription(in: slots, where: { MatchRules.mayFire($0, on: change) }) { candidate in
                guard let reason = MatchRules.reason(candidate, change, records) else { return }
                body(FiredSubscription(subscription: candidate, notificationType: .query, reason: reason))
            }
        }
        if change.database == .private, let bucket = zones[ZoneBucket(change)] {
            for candidate in bucket.values where candidate.ownerRecordName == change.zoneID.ownerRecordName {
                body(FiredSubscription(subscription: candidate, notificationType: .recordZone, reason: nil))
            }
        }
        for recipient in MatchRules.databaseAudience(change) {
            for candidate in databases[DatabaseBucket(change, recipient: recipient)]?.values ?? [:].values {
                body(FiredSubscription(subscription: candidate, notificationType: .database, reason: nil))
            }
        }
    }

    /// Every subscription the change fires as a `Match` for its recipient, by subscription ID
    /// then owner (IDs are per user: two owners may both have one).
    public func matches(for change: RecordChange) -> [Match] {
        var result: [Match] = []
        forEachFired(by: change) { fired in result.append(fired.match(change)) }
        return result.sorted {
            ($0.subscription.subscriptionID, $0.recipient) < ($1.subscription.subscriptionID, $1.recipient)
        }
    }

}

/// One subscription a change fires: what `SubscriptionIndex.forEachFired` reports, cheaper
/// than a `Match` (no copies, no notification ID) until one is needed.
public struct FiredSubscription: Sendable {
    public let subscription: IndexedSubscription
    public let notificationType: NotificationType
    /// Present exactly for query subscriptions.
    public let reason: QueryNotificationReason?

    /// The recipient: the subscription's owner.
    public var recipient: String { subscription.ownerRecordName }

    /// The `Match` message for this firing.
    public func match(_ change: RecordChange) -> Match {
        Match(
            recipient: recipient, notificationType: notificationType, queryNotificationReason: reason,
            subscription: subscription.subscription, change: change)
    }
}
