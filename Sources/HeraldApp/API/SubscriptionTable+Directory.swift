import HeraldAPI
import HeraldMatcher
import HeraldModel
import HeraldStages

extension SubscriptionTable: SubscriptionDirectory {
    public func subscription(forKey key: String) -> Subscription? {
        withIndex { $0.subscription(forKey: key) }
    }

    /// One owner's subscriptions in a container and database, by ID. Scans the table
    /// (fine for listing; matching never does).
    public func subscriptions(container: String, database: DatabaseScope, owner: String) -> [Subscription] {
        withIndex { index in
            index.all.filter { $0.container == container && $0.database == database && $0.ownerRecordName == owner }
        }.sorted { $0.subscriptionID < $1.subscriptionID }
    }

    public func validate(_ subscription: Subscription) throws(MatcherError) {
        _ = try withIndex { (index: SubscriptionIndex) throws(MatcherError) in try index.validate(subscription) }
    }
}
