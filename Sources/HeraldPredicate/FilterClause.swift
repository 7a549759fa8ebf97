import HeraldModel

/// One entry of a CloudKit Web Services `filterBy` list:
/// `{comparator, fieldName, fieldValue: {value, type}, distance?}`. Entries are ANDed.
public struct FilterClause: Sendable, Hashable {
    /// The Web Services comparators (docs/cloudkit-behaviour.md §2), as the wire model defines them.
    public typealias Comparator = FilterComparator

    /// How the field is compared.
    public var comparator: Comparator
    /// A field name or a system field (`___recordID`, `___createTime`, …). For token
    /// comparators, `allTokens`, `___all`, `self` or the empty string mean every field.
    public var fieldName: String
    /// The constant to compare with (a list for IN, NOT_IN, [NOT_]LIST_CONTAINS_ANY/ALL;
    /// a LOCATION for NEAR; a STRING for token and prefix comparators).
    public var fieldValue: FieldValue
    /// For `NEAR`: the radius in metres.
    public var distance: Double?

    /// Creates a clause.
    public init(comparator: Comparator, fieldName: String, fieldValue: FieldValue, distance: Double? = nil) {
        self.comparator = comparator
        self.fieldName = fieldName
        self.fieldValue = fieldValue
        self.distance = distance
    }

    /// Creates a clause from the comparator's wire name.
    /// - Throws: `RecordPredicateError` (`invalidFilter`) for an unknown comparator.
    public init(comparator name: String, fieldName: String, fieldValue: FieldValue, distance: Double? = nil) throws(RecordPredicateError) {
        guard let comparator = Comparator(rawValue: name) else {
            throw RecordPredicateError(.invalidFilter, "unknown filterBy comparator '\(name)'", at: .start, text: name)
        }
        self.init(comparator: comparator, fieldName: fieldName, fieldValue: fieldValue, distance: distance)
    }
}
