/// A subscription as a slim match carries it (`Match.slimmed()`): everything but `query` and
/// `firesOn`, read and written through Codable. The fast codec's twin is
/// `Subscription(wire:at:slim:)` / `write(to:slim:)`; both make the same checks in the same order.
struct SlimSubscription: Codable {
    var subscription: Subscription

    init(_ subscription: Subscription) {
        self.subscription = subscription
    }

    private enum CodingKeys: String, CodingKey {
        case subscriptionID, subscriptionType, container, database, ownerRecordName, zoneID, firesOnce, notificationInfo, revision
    }

    /// Decodes and validates as `Subscription.init(from:)` does, without the query checks:
    /// IDs non-empty, the type allowed in the database, a zone subscription has a zone.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let subscriptionID = try c.decodeNonEmpty(.subscriptionID)
        let subscriptionType = try c.decode(Subscription.SubscriptionType.self, forKey: .subscriptionType)
        let container = try c.decodeNonEmpty(.container)
        let database = try c.decode(DatabaseScope.self, forKey: .database)
        guard subscriptionType.isAllowed(in: database) else {
            throw c.error(
                .invalidValue, "\(subscriptionType.rawValue) subscriptions are not allowed in the \(database.rawValue) database",
                at: .subscriptionType)
        }
        let ownerRecordName = try c.decodeNonEmpty(.ownerRecordName)
        let zoneID = try c.decodeIfPresent(ZoneID.self, forKey: .zoneID)
        let firesOnce = try c.decodeIfPresent(Bool.self, forKey: .firesOnce) ?? false
        let notificationInfo = try c.decodeIfPresent(NotificationInfo.self, forKey: .notificationInfo) ?? NotificationInfo()
        let revision = try c.decodeNonNegativeIfPresent(.revision)
        if subscriptionType == .zone, zoneID == nil {
            throw c.error(.missingValue, "a zone subscription needs a zoneID", at: .zoneID)
        }
        subscription = Subscription(
            subscriptionID: subscriptionID, subscriptionType: subscriptionType, container: container, database: database,
            ownerRecordName: ownerRecordName, zoneID: zoneID, firesOnce: firesOnce, notificationInfo: notificationInfo,
            revision: revision)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subscription.subscriptionID, forKey: .subscriptionID)
        try c.encode(subscription.subscriptionType, forKey: .subscriptionType)
        try c.encode(subscription.container, forKey: .container)
        try c.encode(subscription.database, forKey: .database)
        try c.encode(subscription.ownerRecordName, forKey: .ownerRecordName)
        try c.encodeIfPresent(subscription.zoneID, forKey: .zoneID)
        try c.encode(subscription.firesOnce, forKey: .firesOnce)
        try c.encode(subscription.notificationInfo, forKey: .notificationInfo)
        try c.encodeIfPresent(subscription.revision, forKey: .revision)
    }
}
