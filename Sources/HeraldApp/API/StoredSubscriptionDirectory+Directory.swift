import HeraldAPI
import HeraldStages

extension StoredSubscriptionDirectory: SubscriptionDirectory {}
