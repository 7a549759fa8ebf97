import HeraldModel
import HeraldPredicate

/// CloudKit's rules for saving a subscription (docs/cloudkit-behaviour.md §1), applied before it is indexed
/// or written to the compacted topic.
public struct SubscriptionRules: Sendable {
    /// Refuse predicates CloudKit would refuse (OR, ENDSWITH, LIKE…). Default: off — Herald
    /// accepts the wider NSPredicate subset unless asked to be strict.
    public var strictCloudKit = false
    /// CloudKit allows at most 3 desired keys.
    public static let maxDesiredKeys = 3

    public init(strictCloudKit: Bool = false) {
        self.strictCloudKit = strictCloudKit
    }

    /// Checks the subscription and compiles its predicate.
    /// - Throws: `MatcherError` naming what is wrong.
    public func prepare(_ subscription: Subscription) throws(MatcherError) -> IndexedSubscription {
        try prepareForIndex(subscription).subscription
    }

    /// Where the index files a valid subscription's query (`nil`: a residual, or not a query
    /// subscription): the plan `prepareForIndex` gave it, planned again for its removal.
    func plan(of subscription: Subscription) -> IndexPlan? {
        guard subscription.subscriptionType == .query, let query = subscription.query,
              let predicate = try? RecordPredicate(query: query, cloudKitRules: strictCloudKit)
        else { return nil }
        return IndexPlanner.plan(predicate.root)
    }

    /// `prepare`, with where the index files the subscription.
    /// - Parameter key: the subscription's `partitionKey`, if made already.
    func prepareForIndex(
        _ subscription: Subscription, key: String? = nil
    ) throws(MatcherError) -> (subscription: IndexedSubscription, plan: IndexPlan?) {
        let id = subscription.subscriptionID
        guard subscription.subscriptionType.isAllowed(in: subscription.database) else {
            throw MatcherError(
                code: .invalidSubscription,
                reason: "\(subscription.subscriptionType.rawValue) subscriptions are not allowed in the \(subscription.database.rawValue) database",
                subscriptionID: id)
        }
        let info = subscription.notificationInfo
        guard info.desiredKeys.count <= Self.maxDesiredKeys else {
            throw MatcherError(
                code: .invalidSubscription,
                reason: "notificationInfo.desiredKeys: at most \(Self.maxDesiredKeys) desired keys are allowed, got \(info.desiredKeys.count)",
                subscriptionID: id)
        }
        if subscription.subscriptionType == .zone, subscription.zoneID == nil {
            throw MatcherError(code: .invalidSubscription, reason: "zoneID: a zone subscription needs a zoneID", subscriptionID: id)
        }
        guard let query = subscription.query, subscription.subscriptionType == .query else {
            return (IndexedSubscription(subscription, key: key, predicate: nil), nil)
        }
        guard !subscription.firesOn.isEmpty else {
            throw MatcherError(code: .invalidSubscription, reason: "firesOn: \(Subscription.emptyFiresOnReason)", subscriptionID: id)
        }
        do {
            let predicate = try RecordPredicate(query: query, cloudKitRules: strictCloudKit)
            return (IndexedSubscription(subscription, key: key, predicate: predicate), IndexPlanner.plan(predicate.root))
        } catch {
            throw MatcherError(code: .invalidPredicate, reason: "invalid predicate: \(error)", subscriptionID: id)
        }
    }

    /// The hash of `definition(subscription)` (equal definitions hash alike), without making
    /// the definition: `firesOn` as its set of events, the notification info by its hash
    /// taken once (`infoHash`, `SharedNotificationInfo.hash`). Copying the subscription and
    /// hashing every string of its info again was a twentieth of preparing one.
    static func definitionHash(_ subscription: Subscription, infoHash: Int) -> Int {
        var hasher = Hasher()
        hasher.combine(subscription.subscriptionType)
        hasher.combine(subscription.container)
        hasher.combine(subscription.database)
        hasher.combine(subscription.ownerRecordName)
        hasher.combine(subscription.query)
        hasher.combine(subscription.zoneID)
        hasher.combine(IndexedSubscription.Events(subscription.firesOn).rawValue)
        hasher.combine(subscription.firesOnce)
        hasher.combine(infoHash)
        return hasher.finalize()
    }

    /// The subscription's definition without its ID and revision, to find duplicates of one
    /// owner. `firesOn` is a set (CloudKit's options are bits): its order is not part of it.
    public static func definition(_ subscription: Subscription) -> Subscription {
        var copy = subscription
        copy.subscriptionID = ""
        copy.revision = nil
        copy.firesOn = Subscription.Event.allCases.filter(subscription.firesOn.contains)
        return copy
    }
}
