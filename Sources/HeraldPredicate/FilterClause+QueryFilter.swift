import HeraldModel

extension FilterClause {
    /// Maps a decoded `filterBy` entry of a subscription onto a clause.
    /// - Throws: `RecordPredicateError` (`invalidFilter`) if the model knows a comparator
    ///   this module does not (both spell the Web Services names).
    public init(_ filter: QueryFilter) throws(RecordPredicateError) {
        self.init(comparator: filter.comparator, fieldName: filter.fieldName, fieldValue: filter.fieldValue, distance: filter.distance)
    }
}
