import HeraldModel

/// Every subscription, indexed so that a record change visits only the subscriptions that
/// could fire for it: query subscriptions by (container, database, record type, owner in
/// private databases), zone subscriptions by zone, database subscriptions by owner.
///
/// Within a bucket the compiled predicate is evaluated; indexing inside predicates
/// (equality, ranges, prefixes, tokens, geo cells) builds on this (issue 3).
public struct SubscriptionIndex: Sendable {
    private struct QueryBucket: Hashable {
        var container: String
        var database: DatabaseScope
        var recordType: String
        /// The owner in private databases (only zones they own are visible); `nil` in public.
        var owner: String?
    }

    private struct ZoneBucket: Hashable {
        var container: String
        var zone: ZoneID
    }

    private struct DatabaseBucket: Hashable {
        var container: String
        var database: DatabaseScope
        var owner: String
    }

    public let rules: SubscriptionRules
    private var byKey: [String: IndexedSubscription] = [:]
    /// Query subscriptions of one bucket and the equality index over their predicates.
    private struct QueryEntries: Sendable {
        var subscriptions: [String: IndexedSubscription] = [:]
        var equality = EqualityIndex()
    }

    private var queries: [QueryBucket: QueryEntries] = [:]
    private var zones: [ZoneBucket: [String: IndexedSubscription]] = [:]
    private var databases: [DatabaseBucket: [String: IndexedSubscription]] = [:]
    /// Definitions (without IDs) per owner, to refuse duplicates.
    private var definitions: [Subscription: String] = [:]

    /// Off: visit every query subscription of a bucket (the baseline of `herald bench matcher`
    /// and the tests' brute-force oracle). Default: on.
    public var usesEqualityIndex = true

    public init(rules: SubscriptionRules = SubscriptionRules()) {
        self.rules = rules
    }

    public var count: Int { byKey.count }

    public func subscription(forKey key: String) -> Subscription? { byKey[key]?.subscription }

    public var all: [Subscription] { byKey.values.map(\.subscription) }

    /// Checks a subscription against the rules and the owner's other subscriptions, without adding it.
    /// - Throws: `MatcherError`, e.g. `duplicateSubscription` naming the existing one.
    public func validate(_ subscription: Subscription) throws(MatcherError) -> IndexedSubscription {
        let prepared = try rules.prepare(subscription)
        if let existing = definitions[SubscriptionRules.definition(subscription)],
           existing != subscription.partitionKey, let other = byKey[existing] {
            throw MatcherError(
                .duplicateSubscription, "subscription is duplicate of '\(other.subscription.subscriptionID)'",
                subscriptionID: subscription.subscriptionID)
        }
        return prepared
    }

    /// Adds or replaces a subscription (the compacted topic's upsert).
    /// - Throws: `MatcherError` when it breaks a rule; the index is then unchanged.
    public mutating func upsert(_ subscription: Subscription) throws(MatcherError) {
        let prepared = try validate(subscription)
        remove(key: prepared.key)
        byKey[prepared.key] = prepared
        definitions[SubscriptionRules.definition(subscription)] = prepared.key
        switch subscription.subscriptionType {
        case .query:
            let bucket = queryBucket(subscription)
            queries[bucket, default: QueryEntries()].subscriptions[prepared.key] = prepared
            queries[bucket]?.equality.insert(prepared.key, placement: prepared.placement)
        case .zone: zones[zoneBucket(subscription), default: [:]][prepared.key] = prepared
        case .database: databases[databaseBucket(subscription), default: [:]][prepared.key] = prepared
        }
    }

    /// Removes a subscription (a tombstone); removing an unknown key does nothing.
    public mutating func remove(key: String) {
        guard let old = byKey.removeValue(forKey: key) else { return }
        let subscription = old.subscription
        definitions[SubscriptionRules.definition(subscription)] = nil
        switch subscription.subscriptionType {
        case .query:
            let bucket = queryBucket(subscription)
            queries[bucket]?.subscriptions[key] = nil
            queries[bucket]?.equality.remove(key)
            if queries[bucket]?.subscriptions.isEmpty == true { queries[bucket] = nil }
        case .zone: Self.remove(key, from: &zones, bucket: zoneBucket(subscription))
        case .database: Self.remove(key, from: &databases, bucket: databaseBucket(subscription))
        }
    }

    private static func remove<Bucket: Hashable>(
        _ key: String, from buckets: inout [Bucket: [String: IndexedSubscription]], bucket: Bucket
    ) {
        buckets[bucket]?[key] = nil
        if buckets[bucket]?.isEmpty == true { buckets[bucket] = nil }
    }

    /// Every subscription the change fires, with the recipient and reason (reference §1).
    public func matches(for change: RecordChange) -> [Match] {
        var result: [Match] = []
        let zoneOwner = change.zoneID.ownerRecordName
        let owner: String? = change.database == .public ? nil : zoneOwner
        let queryKey = QueryBucket(container: change.container, database: change.database, recordType: change.recordType, owner: owner)
        let entries = queries[queryKey]
        let candidateKeys = usesEqualityIndex
            ? entries?.equality.candidates(change.fields, previous: change.previousFields) ?? []
            : Set(entries?.subscriptions.keys ?? [:].keys)
        for key in candidateKeys {
            guard let candidate = entries?.subscriptions[key] else { continue }
            if let zone = candidate.subscription.zoneID, zone != change.zoneID { continue }
            guard let reason = MatchRules.reason(candidate, change) else { continue }
            result.append(match(candidate, change, type: .query, reason: reason))
        }
        if change.database == .private {
            for candidate in zones[ZoneBucket(container: change.container, zone: change.zoneID)]?.values ?? [:].values
            where candidate.subscription.ownerRecordName == zoneOwner {
                result.append(match(candidate, change, type: .recordZone, reason: nil))
            }
        }
        for recipient in MatchRules.databaseAudience(change) {
            let bucket = DatabaseBucket(container: change.container, database: change.database, owner: recipient)
            for candidate in databases[bucket]?.values ?? [:].values {
                result.append(match(candidate, change, type: .database, reason: nil))
            }
        }
        return result.sorted { $0.subscription.subscriptionID < $1.subscription.subscriptionID }
    }

    private func match(_ candidate: IndexedSubscription, _ change: RecordChange, type: NotificationType, reason: QueryNotificationReason?) -> Match {
        Match(
            recipient: candidate.subscription.ownerRecordName, notificationType: type,
            queryNotificationReason: reason, subscription: candidate.subscription, change: change)
    }

    private func queryBucket(_ subscription: Subscription) -> QueryBucket {
        QueryBucket(
            container: subscription.container, database: subscription.database,
            recordType: subscription.query?.recordType ?? "",
            owner: subscription.database == .public ? nil : subscription.ownerRecordName)
    }

    private func zoneBucket(_ subscription: Subscription) -> ZoneBucket {
        ZoneBucket(container: subscription.container, zone: subscription.zoneID ?? ZoneID(zoneName: "", ownerRecordName: ""))
    }

    private func databaseBucket(_ subscription: Subscription) -> DatabaseBucket {
        DatabaseBucket(container: subscription.container, database: subscription.database, owner: subscription.ownerRecordName)
    }
}
