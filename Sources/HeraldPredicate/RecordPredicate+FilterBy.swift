import HeraldModel

extension RecordPredicate {
    /// Builds a predicate from a CloudKit Web Services `filterBy` list (entries ANDed; an
    /// empty list matches everything). `NEAR` distances are metres.
    ///
    /// - Throws: `RecordPredicateError` (`invalidFilter`) whose line is the 1-based clause number.
    public init(filterBy clauses: [FilterClause], cloudKitRules: Bool = false, schema: [String: FieldType]? = nil) throws(RecordPredicateError) {
        self.init(try FilterCompiler.compile(clauses))
        if cloudKitRules { try checkCloudKitRules(schema: schema) }
    }
}
