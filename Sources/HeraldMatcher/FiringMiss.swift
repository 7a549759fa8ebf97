/// Why a subscription does not fire for a record change: the first rule of the matcher's
/// own path that the change fails (`SubscriptionIndex.explain`).
public struct FiringMiss: Sendable, Hashable, CustomStringConvertible {
    /// The rule that fails, in the order the matcher applies them.
    public enum Rule: String, Sendable, Hashable {
        /// The change is in another container.
        case container
        /// The change is in another database, or the subscription's kind does not fire there.
        case database
        /// The changed record is of another type than the query watches.
        case recordType
        /// The change is in a zone the subscription does not watch.
        case zone
        /// The change's zone or share is not visible to the subscription's owner.
        case visibility
        /// `firesOn` does not include what the change did to the record.
        case firesOn
        /// The predicate is false for the record.
        case predicate
        /// The subscription itself lacks what its kind needs (a query subscription without a query).
        case definition
        /// No single rule explains the miss.
        case unexplained
    }

    public let rule: Rule
    /// The reason as a sentence a person can act on, e.g. "zone: the subscription watches
    /// Shopping (owner _bob), the change is in Notes (owner _bob)".
    public let explanation: String

    public init(_ rule: Rule, _ explanation: String) {
        self.rule = rule
        self.explanation = explanation
    }

    public var description: String { explanation }
}
