import HeraldModel

extension RecordPredicate {
    /// Builds the predicate of a query subscription: its format string with its arguments,
    /// or its `filterBy` list, or `TRUEPREDICATE` when it has neither.
    /// - Throws: `RecordPredicateError` for a bad predicate, argument or clause.
    public init(query: SubscriptionQuery, cloudKitRules: Bool = false, schema: [String: FieldType]? = nil) throws(RecordPredicateError) {
        if let format = query.predicate {
            try self.init(format: format, arguments: PredicateArgument.list(query.arguments ?? []), cloudKitRules: cloudKitRules, schema: schema)
        } else if let filters = query.filterBy {
            var clauses: [FilterClause] = []
            for (i, filter) in filters.enumerated() {
                do {
                    clauses.append(try FilterClause(filter))
                } catch {
                    throw RecordPredicateError(error.code, error.reason, at: SourcePosition(line: i + 1, column: 1), text: error.text)
                }
            }
            try self.init(filterBy: clauses, cloudKitRules: cloudKitRules, schema: schema)
        } else {
            self.init(.constant(true))
        }
    }
}
