import HeraldModel
import HeraldPredicate

/// A subscription ready to be matched: its predicate compiled once.
public struct IndexedSubscription: Sendable {
    public let subscription: Subscription
    let predicate: CompiledPredicate?
    let events: Set<Subscription.Event>

    init(_ subscription: Subscription, predicate: CompiledPredicate?) {
        self.subscription = subscription
        self.predicate = predicate
        self.events = Set(subscription.firesOn)
    }

    /// The key of the subscription in the compacted topic.
    public var key: String { subscription.partitionKey }

    func satisfied(by fields: [String: FieldValue], of change: RecordChange) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(PredicateRecord(
            recordName: change.recordName, recordType: change.recordType, fields: fields,
            creationDate: change.creationDate, modificationDate: change.timestamp,
            createdBy: change.createdBy, modifiedBy: change.modifiedBy))
    }
}
