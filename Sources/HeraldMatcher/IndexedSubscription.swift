import HeraldModel
import HeraldPredicate

/// A subscription ready to be matched: its predicate compiled and its place in the index
/// decided once. A class, so every bucket and table shares one copy.
public final class IndexedSubscription: Sendable {
    public let subscription: Subscription
    /// The key of the subscription in the compacted topic.
    public let key: String
    let predicate: CompiledPredicate?
    let events: Events
    /// Where the index files it (`nil`: a residual, a candidate for every change of its bucket).
    let plan: IndexPlan?

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
        self.subscription = subscription
        self.key = subscription.partitionKey
        self.predicate = predicate?.compile()
        self.events = Events(subscription.firesOn)
        self.plan = predicate.flatMap { IndexPlanner.plan($0.root) }
    }

    func satisfied(by fields: [String: FieldValue], of change: RecordChange) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(PredicateRecord(
            recordName: change.recordName, recordType: change.recordType, fields: fields,
            creationDate: change.creationDate, modificationDate: change.timestamp,
            createdBy: change.createdBy, modifiedBy: change.modifiedBy))
    }
}
