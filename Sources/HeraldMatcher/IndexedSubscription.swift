import HeraldModel
import HeraldPredicate

/// A subscription ready to be matched: its predicate compiled once. A class, so every bucket
/// and table shares one copy. Where the index files it (`IndexPlan`) is not kept: removal
/// plans it again from the query (`SubscriptionRules.plan(of:)`), saving ~100–200 bytes each.
///
/// Stored compactly: the subscription's fields without its `NotificationInfo` and `firesOn`
/// list, which point to copies shared by every subscription of the index that has the same
/// (`SharedParts`: a million subscriptions of an app mostly share a handful); `subscription`
/// puts them back together. Properties are declared in the order that packs them best
/// (Swift lays them out as declared): what matching reads of a candidate — its predicate,
/// zone and events — first, in the cache line of the reference count that retaining it
/// touches anyway (at a million subscriptions each candidate is a cache miss; spread over
/// the object's three lines, it was three); the one-byte fields together after the
/// strings; the zone — absent from most query subscriptions — behind a reference. About
/// 200 bytes.
public final class IndexedSubscription: Sendable {
    let predicate: CompiledPredicate?
    /// 8 bytes instead of an inline `ZoneID?`'s 32.
    private let zone: Zone?
    /// Where its query bucket keeps it (`QueryIndex`); -1 until indexed, and for zone and
    /// database subscriptions.
    let slot: Int32
    let events: Events
    /// The key of the subscription in the compacted topic.
    public let key: String
    /// The subscription's fields but `notificationInfo`, `firesOn` and the zone.
    private let fields: Fields
    let firesOn: [Subscription.Event]
    let info: SharedNotificationInfo

    private struct Fields: Sendable {
        var subscriptionID: String
        var container: String
        var ownerRecordName: String
        var query: SubscriptionQuery?
        var revision: Int64?
        var subscriptionType: Subscription.SubscriptionType
        var database: DatabaseScope
        var firesOnce: Bool
    }

    /// A zone, kept behind a reference.
    private final class Zone: Sendable {
        let id: ZoneID

        init(_ id: ZoneID) {
            self.id = id
        }
    }

    var ownerRecordName: String { fields.ownerRecordName }
    var zoneID: ZoneID? { zone?.id }

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

    /// - Parameter key: `subscription.partitionKey` if the caller made it already.
    init(_ subscription: Subscription, key: String? = nil, predicate: RecordPredicate?) {
        self.key = key ?? subscription.partitionKey
        fields = Fields(
            subscriptionID: subscription.subscriptionID, container: subscription.container,
            ownerRecordName: subscription.ownerRecordName, query: subscription.query, revision: subscription.revision,
            subscriptionType: subscription.subscriptionType, database: subscription.database, firesOnce: subscription.firesOnce)
        zone = subscription.zoneID.map(Zone.init)
        firesOn = subscription.firesOn
        info = SharedNotificationInfo(subscription.notificationInfo)
        self.predicate = predicate?.compile()
        events = Events(subscription.firesOn)
        slot = -1
    }

    /// The same subscription pointing to shared copies of its notification info and `firesOn`, in `slot`.
    private init(_ other: IndexedSubscription, info: SharedNotificationInfo, firesOn: [Subscription.Event], slot: Int32) {
        key = other.key
        fields = other.fields
        zone = other.zone
        self.firesOn = firesOn
        self.info = info
        predicate = other.predicate
        events = other.events
        self.slot = slot
    }

    func sharing(_ info: SharedNotificationInfo, firesOn: [Subscription.Event], slot: Int32) -> IndexedSubscription {
        IndexedSubscription(self, info: info, firesOn: firesOn, slot: slot)
    }

    /// The subscription as saved.
    public var subscription: Subscription {
        Subscription(
            subscriptionID: fields.subscriptionID, subscriptionType: fields.subscriptionType, container: fields.container,
            database: fields.database, ownerRecordName: fields.ownerRecordName, query: fields.query, zoneID: zoneID,
            firesOn: firesOn, firesOnce: fields.firesOnce, notificationInfo: info.value, revision: fields.revision)
    }

    func satisfied(by fields: [String: FieldValue], of change: RecordChange) -> Bool {
        guard predicate != nil else { return true }
        return satisfied(by: ChangeRecords.record(change, fields: fields))
    }

    /// Whether the record satisfies the predicate (a subscription without one: always).
    func satisfied(by record: PredicateRecord) -> Bool {
        predicate?.evaluate(record) ?? true
    }
}

/// A notification info, one copy shared by the indexed subscriptions that have it.
final class SharedNotificationInfo: Sendable {
    let value: NotificationInfo
    /// `value.hashValue`, taken once (`SharedParts` finds equal infos by it).
    let hash: Int

    init(_ value: NotificationInfo) {
        self.value = value
        hash = value.hashValue
    }
}
