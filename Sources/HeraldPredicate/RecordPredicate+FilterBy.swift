import HeraldModel

extension RecordPredicate {
    /// Builds a predicate from a CloudKit Web Services `filterBy` list (entries ANDed; an
    /// empty list matches everything). `NEAR` distances are metres.
    ///
    /// With `cloudKitRules`, the tree is checked as a format string would be, except that a
    /// NOT around an AND is allowed: a list builds one only for `NOT_LIST_CONTAINS_ALL`, a
    /// comparator CloudKit Web Services accepts (its format-string spelling,
    /// `NOT (tags CONTAINS 'a' AND tags CONTAINS 'b')`, has no CloudKit equivalent).
    ///
    /// - Throws: `RecordPredicateError` (`invalidFilter`) whose line is the 1-based clause number.
    public init(filterBy clauses: [FilterClause], cloudKitRules: Bool = false, schema: [String: FieldType]? = nil) throws(RecordPredicateError) {
        self.init(try FilterCompiler.compile(clauses))
        if cloudKitRules { try checkCloudKitRules(schema: schema, allowing: [.notOverAnd]) }
    }
}
