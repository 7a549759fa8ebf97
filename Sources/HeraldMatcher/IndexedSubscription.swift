import HeraldModel
import HeraldPredicate

/// A subscription ready to be matched: its predicate compiled once.
public struct IndexedSubscription: Sendable {
    public let subscription: Subscription
    let predicate: CompiledPredicate?
    let events: Set<Subscription.Event>
    /// Where the equality index files it (`nil`: a residual, always a candidate).
    let placement: EqualityIndex.Placement?

    init(_ subscription: Subscription, predicate: RecordPredicate?) {
        self.subscription = subscription
        self.predicate = predicate?.compile()
        self.events = Set(subscription.firesOn)
        self.placement = predicate.flatMap(EqualityIndex.placement(for:))
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
