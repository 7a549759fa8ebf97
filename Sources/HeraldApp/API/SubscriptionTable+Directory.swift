import HeraldAPI
import HeraldMatcher
import HeraldModel
import HeraldStages

extension SubscriptionTable: SubscriptionDirectory {
    public func subscription(forKey key: String) -> Subscription? {
        withIndex { $0.subscription(forKey: key) }
    }

    public func validate(_ subscription: Subscription) throws(MatcherError) {
        _ = try withIndex { (index: SubscriptionIndex) throws(MatcherError) in try index.validate(subscription) }
    }
}
