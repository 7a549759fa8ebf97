/// A CloudKit Web Services `filterBy` comparator (docs/cloudkit-behaviour.md §2). A closed set: an
/// unknown name is a decode error that names it.
public enum FilterComparator: String, WireEnum {
    case equals = "EQUALS"
    case notEquals = "NOT_EQUALS"
    case lessThan = "LESS_THAN"
    case lessThanOrEquals = "LESS_THAN_OR_EQUALS"
    case greaterThan = "GREATER_THAN"
    case greaterThanOrEquals = "GREATER_THAN_OR_EQUALS"
    /// Within `distance` metres of a LOCATION.
    case near = "NEAR"
    case containsAllTokens = "CONTAINS_ALL_TOKENS"
    case containsAnyTokens = "CONTAINS_ANY_TOKENS"
    case `in` = "IN"
    case notIn = "NOT_IN"
    case listContains = "LIST_CONTAINS"
    case notListContains = "NOT_LIST_CONTAINS"
    case listContainsAny = "LIST_CONTAINS_ANY"
    case listContainsAll = "LIST_CONTAINS_ALL"
    /// The list field holds none of the given values: the negation of `LIST_CONTAINS_ANY`
    /// (a missing field matches).
    case notListContainsAny = "NOT_LIST_CONTAINS_ANY"
    /// The list field does not hold every given value: the negation of `LIST_CONTAINS_ALL`
    /// (a missing field matches; an empty list of values matches nothing).
    case notListContainsAll = "NOT_LIST_CONTAINS_ALL"
    case beginsWith = "BEGINS_WITH"
    case notBeginsWith = "NOT_BEGINS_WITH"
    case listMemberBeginsWith = "LIST_MEMBER_BEGINS_WITH"
    case notListMemberBeginsWith = "NOT_LIST_MEMBER_BEGINS_WITH"

    public static var wireName: String { "comparator" }
}
