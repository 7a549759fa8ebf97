import HeraldModel
import HeraldPredicate

/// A subscription ready to be matched: its predicate compiled once. A class, so every bucket
/// and table shares one copy. Where the index files it (`IndexPlan`) is not kept: removal
/// plans it again from the query (`SubscriptionRules.plan(of:)`), saving ~100–200 bytes each.
///
/// Stored compactly: the subscription's fields without its `NotificationInfo` and `firesOn`
/// list, which point to copies shared by every subscription of the index that has the same
/// (`SharedParts`: a million subscriptions of an app mostly share a handful); `subscription`
/// puts them back together.
public final class IndexedSubscription: Sendable {
    /// The key of the subscription in the compacted topic.
    public let key: String
    /// The subscription's fields but `notificationInfo` and `firesOn`.
    private let fields: Fields
    let firesOn: [Subscription.Event]
    let info: SharedNotificationInfo
    let predicate: CompiledPredicate?
    let events: Events

    private struct Fields: Sendable {
        var subscriptionID: String
        var subscriptionType: Subscription.SubscriptionType
        var container: String
        var database: DatabaseScope
        var ownerRecordName: String
        var query: SubscriptionQuery?
        var zoneID: ZoneID?
        var firesOnce: Bool
    }

    var ownerRecordName: String { fields.ownerRecordName }
    var zoneID: ZoneID? { fields.zoneID }

    /// The `firesOn` events as bits.
    struct Events: OptionSet, Sendable {
        let rawValue: UInt8
        static let create = Events(rawValue: 1)
        static let update = Events(rawValue: 2)
        static let delete = Events(rawValue: 4)
        static let enter = Events(rawValue: 8)
        static let leave = Events(rawValue: 16)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ events: [Subscription.Event]) {
            var bits: Events = []
            for event in events {
                switch event {
                case .create: bits.insert(.create)
                case .update: bits.insert(.update)
                case .delete: bits.insert(.delete)
                case .enter: bits.insert(.enter)
                case .leave: bits.insert(.leave)
                }
            }
            self = bits
        }
    }

    init(_ subscription: Subscription, predicate: RecordPredicate?) {
        key = subscription.partitionKey
        fields = Fields(
            subscriptionID: subscription.subscriptionID, subscriptionType: subscription.subscriptionType,
            container: subscription.container, database: subscription.database, ownerRecordName: subscription.ownerRecordName,
            query: subscription.query, zoneID: subscription.zoneID, firesOnce: subscription.firesOnce)
        firesOn = subscription.firesOn
        info = SharedNotificationInfo(subscription.notificationInfo)
        self.predicate = predicate?.compile()
        events = Events(subscription.firesOn)
    }

    /// The same subscription pointing to shared copies of its notification info and `firesOn`.
    private init(_ other: IndexedSubscription, info: SharedNotificationInfo, firesOn: [Subscription.Event]) {
        key = other.key
        fields = other.fields
        self.firesOn = firesOn
        self.info = info
        predicate = other.predicate
        events = other.events
    }

    func sharing(_ info: SharedNotificationInfo, firesOn: [Subscription.Event]) -> IndexedSubscription {
        IndexedSubscription(self, info: info, firesOn: firesOn)
    }

    /// The subscription as saved.
    public var subscription: Subscription {
        Subscription(
            subscriptionID: fields.subscriptionID, subscriptionType: fields.subscriptionType, container: fields.container,
            database: fields.database, ownerRecordName: fields.ownerRecordName, query: fields.query, zoneID: fields.zoneID,
            firesOn: firesOn, firesOnce: fields.firesOnce, notificationInfo: info.value)
    }

    func satisfied(by fields: [String: FieldValue], of change: RecordChange) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(PredicateRecord(
            recordName: change.recordName, recordType: change.recordType, fields: fields,
            creationDate: change.creationDate, modificationDate: change.timestamp,
            createdBy: change.createdBy, modifiedBy: change.modifiedBy))
    }
}

/// A notification info, one copy shared by the indexed subscriptions that have it.
final class SharedNotificationInfo: Sendable {
    let value: NotificationInfo

    init(_ value: NotificationInfo) {
        self.value = value
    }
}
