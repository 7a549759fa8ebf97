import HeraldModel

// The keys `SubscriptionIndex` files subscriptions under and looks record changes up by.
// Each has one initializer from a subscription (where it is filed) and one from a change
// (where the matcher looks): a subscription can fire for a change only when both give the
// same key, which is also how `SubscriptionIndex.explain` finds the rule a miss breaks.

/// Query subscriptions: container, database, record type, and the owner in private databases.
struct QueryBucket: Hashable {
    var container: String
    var database: DatabaseScope
    var recordType: String
    /// The owner in private databases (only zones they own are visible); `nil` in public.
    var owner: String?

    init(_ subscription: Subscription) {
        container = subscription.container
        database = subscription.database
        recordType = subscription.query?.recordType ?? ""
        owner = subscription.database == .public ? nil : subscription.ownerRecordName
    }

    init(_ change: RecordChange) {
        container = change.container
        database = change.database
        recordType = change.recordType
        owner = change.database == .public ? nil : change.zoneID.ownerRecordName
    }
}

/// Zone subscriptions: container and zone.
struct ZoneBucket: Hashable {
    var container: String
    var zone: ZoneID

    init(_ subscription: Subscription) {
        container = subscription.container
        zone = subscription.zoneID ?? ZoneID(zoneName: "", ownerRecordName: "")
    }

    init(_ change: RecordChange) {
        container = change.container
        zone = change.zoneID
    }
}

/// Database subscriptions: container, database and owner (a change is looked up once per
/// owner of its audience, `MatchRules.databaseAudience`).
struct DatabaseBucket: Hashable {
    var container: String
    var database: DatabaseScope
    var owner: String

    init(_ subscription: Subscription) {
        container = subscription.container
        database = subscription.database
        owner = subscription.ownerRecordName
    }

    init(_ change: RecordChange, recipient: String) {
        container = change.container
        database = change.database
        owner = recipient
    }
}
