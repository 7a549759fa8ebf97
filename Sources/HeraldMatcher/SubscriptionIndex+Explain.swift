import HeraldModel
import HeraldPredicate

extension SubscriptionIndex {
    /// Why `subscription` does not fire for `change`, or `nil` when it fires.
    ///
    /// The matcher decides: the subscription is matched through an index of its own with
    /// these rules. Only a miss is then explained, along the matcher's path — the keys the
    /// index files the subscription under and looks the change up by (container, database,
    /// record type, zone, owner), the zone filter, the audience of database subscriptions,
    /// then `firesOn` and the compiled predicate — naming the first rule that fails
    /// (docs/cloudkit-behaviour.md §1). Used by `herald payload build`, which can only compose what fires.
    /// - Throws: `MatcherError` when the subscription breaks a rule for saving it.
    public func explain(_ subscription: Subscription, _ change: RecordChange) throws(MatcherError) -> FiringMiss? {
        var alone = SubscriptionIndex(rules: rules)
        try alone.upsert(subscription)
        guard alone.matches(for: change).isEmpty else { return nil }
        let candidate = try rules.prepare(subscription)
        if subscription.container != change.container {
            return FiringMiss(.container, "container: the change is in \(change.container), the subscription in \(subscription.container)")
        }
        if subscription.database != change.database {
            return FiringMiss(
                .database,
                "database: the change is in the \(change.database.rawValue) database, the subscription in the \(subscription.database.rawValue) database")
        }
        let miss: FiringMiss? = switch subscription.subscriptionType {
        case .query: queryMiss(candidate, change)
        case .zone: Self.zoneMiss(subscription, change)
        case .database: Self.databaseMiss(subscription, change)
        }
        return miss ?? FiringMiss(.unexplained, "no subscription rule (docs/cloudkit-behaviour.md §1) lets this change fire the subscription")
    }

    private func queryMiss(_ candidate: IndexedSubscription, _ change: RecordChange) -> FiringMiss? {
        let subscription = candidate.subscription
        guard let query = subscription.query else { return FiringMiss(.definition, "the query subscription has no query") }
        let filed = QueryBucket(subscription), sought = QueryBucket(change)
        if filed.recordType != sought.recordType {
            return FiringMiss(
                .recordType, "record type: the changed record is of type \(change.recordType), the subscription watches \(query.recordType)")
        }
        if filed.owner != sought.owner {
            let owner = subscription.ownerRecordName
            return FiringMiss(
                .visibility,
                "visibility: the change's zone belongs to \(change.zoneID.ownerRecordName); a \(change.database.rawValue)-database subscription of \(owner) only sees zones \(owner) owns")
        }
        if !MatchRules.watchesZone(candidate, of: change), let zone = subscription.zoneID {
            return Self.zoneMismatch(zone, change)
        }
        guard let predicate = try? RecordPredicate(query: query, cloudKitRules: rules.strictCloudKit) else { return nil }
        return MatchRules.miss(candidate, change, predicate: "`\(predicate.canonicalFormat)`")
    }

    private static func zoneMiss(_ subscription: Subscription, _ change: RecordChange) -> FiringMiss? {
        if ZoneBucket(subscription) != ZoneBucket(change), let zone = subscription.zoneID { return zoneMismatch(zone, change) }
        if change.zoneID.ownerRecordName != subscription.ownerRecordName {
            return FiringMiss(
                .visibility,
                "visibility: the zone belongs to \(change.zoneID.ownerRecordName), not to the subscription's owner \(subscription.ownerRecordName)")
        }
        return nil
    }

    private static func databaseMiss(_ subscription: Subscription, _ change: RecordChange) -> FiringMiss? {
        let owner = subscription.ownerRecordName
        guard !MatchRules.databaseAudience(change).contains(owner) else { return nil }
        switch change.database {
        case .private where change.zoneID.isDefaultZone:
            return FiringMiss(.zone, "zone: changes in the private database's default zone do not fire database subscriptions")
        case .private:
            return FiringMiss(
                .visibility,
                "visibility: the change's zone belongs to \(change.zoneID.ownerRecordName), not to the subscription's owner \(owner)")
        case .shared:
            let participants = change.participants ?? []
            return FiringMiss(
                .visibility, "visibility: \(owner) is not among the change's participants [\(participants.joined(separator: ", "))]")
        case .public:
            return FiringMiss(.database, "database: database subscriptions do not fire for public-database changes")
        }
    }

    private static func zoneMismatch(_ zone: ZoneID, _ change: RecordChange) -> FiringMiss {
        func describe(_ zone: ZoneID) -> String { "\(zone.zoneName) (owner \(zone.ownerRecordName))" }
        return FiringMiss(.zone, "zone: the subscription watches \(describe(zone)), the change is in \(describe(change.zoneID))")
    }
}
