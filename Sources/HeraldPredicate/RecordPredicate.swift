import HeraldModel

/// A parsed subscription predicate: the syntax tree plus what can be done with it.
///
/// Build one from an NSPredicate format string or a CloudKit Web Services `filterBy` list;
/// both give the same kind of tree. Render it canonically, check it against CloudKit's
/// rules, split it into conjuncts for indexing, or compile it for fast evaluation.
/// Equality is by meaning (source positions are ignored).
///
/// Format-string syntax (keywords case-insensitive):
/// - comparisons `= == != <> < > <= =< >= =>`, `BETWEEN {lo, hi}` (inclusive),
///   `BEGINSWITH ENDSWITH CONTAINS LIKE IN`, options `[c] [d] [cd]` after any operator;
/// - `AND && OR || NOT !`, parentheses, `TRUEPREDICATE FALSEPREDICATE`;
/// - modifiers `ANY SOME ALL NONE` before a list key;
/// - literals `'…'`/`"…"` (escapes `\n \t \r \0 \\ \' \" \uXXXX`), integers (also `0x`,
///   `0o`, `0b`, negative), decimals with exponents, `{a, b}`, `TRUE YES FALSE NO NULL NIL`;
/// - keys `name`, `#reserved`, key paths `a.b` (always missing on a record), metadata
///   `recordName creationDate modificationDate createdBy modifiedBy`;
/// - `SELF CONTAINS 'words'` / `allTokens TOKENMATCHES[cdl] 'words'` (any token; a key
///   instead of `allTokens` searches that field only);
/// - `distanceToLocation:fromLocation:(key, location) < km` where the location is a LOCATION
///   argument or `LOCATION(lat, lon)`;
/// - Herald's typed literals `TIMESTAMP(ms)`, `REFERENCE('name')`, `LOCATION(lat, lon)`,
///   `BYTES('base64')`, which is how the canonical form writes typed arguments;
/// - substitutions `%@` (also `%d %i %f %ld …`), `%K`, `%n$@`, `%n$K`.
/// Not supported (an error): `MATCHES`, `SUBQUERY`, `FUNCTION`, arithmetic, aggregates of keys.
///
/// Normalization keeps conjunct order (it matters for short-circuiting, not meaning) and
/// does not turn `NOT a != 1` into `a == 1`: the two differ on a missing field.
public struct RecordPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The syntax tree.
    public var root: PredicateNode

    /// Wraps a tree built in code.
    public init(_ root: PredicateNode) {
        self.root = root
    }

    /// Parses an NSPredicate format string.
    ///
    /// - Parameters:
    ///   - format: the predicate text, e.g. `"priority >= %@ AND tags CONTAINS 'urgent'"`.
    ///   - arguments: values for `%@`/`%n$@` and key names for `%K`, in order.
    ///   - cloudKitRules: when `true`, anything CloudKit would refuse is an error
    ///     (`RecordPredicateError.Code.cloudKitRule`) instead of an accepted Herald extension.
    ///   - schema: the record type's field types, when known (sharpens the CloudKit check).
    /// - Throws: `RecordPredicateError` with the line and column of the first problem.
    public init(
        format: String, arguments: [PredicateArgument] = [],
        cloudKitRules: Bool = false, schema: [String: FieldType]? = nil
    ) throws(RecordPredicateError) {
        var parser = try PredicateParser(format, arguments: arguments)
        self.root = try parser.parse()
        if cloudKitRules { try checkCloudKitRules(schema: schema) }
    }

    /// The canonical format string (see `PredicateRenderer`).
    public var canonicalFormat: String { PredicateRenderer.render(root) }

    public var description: String { canonicalFormat }

    /// What CloudKit would refuse in this predicate, in source order.
    public func cloudKitDiagnostics(schema: [String: FieldType]? = nil) -> [PredicateDiagnostic] {
        CloudKitRules(schema: schema).check(root)
    }

    /// Throws the first CloudKit rule violation, if any.
    public func checkCloudKitRules(schema: [String: FieldType]? = nil) throws(RecordPredicateError) {
        try checkCloudKitRules(schema: schema, allowing: [])
    }

    /// Throws the first CloudKit rule violation whose code is not in `allowed`, if any.
    func checkCloudKitRules(schema: [String: FieldType]?, allowing allowed: Set<PredicateDiagnostic.Code>) throws(RecordPredicateError) {
        if let first = cloudKitDiagnostics(schema: schema).first(where: { !allowed.contains($0.code) }) {
            throw RecordPredicateError(.cloudKitRule, first.message, at: first.position, text: first.text)
        }
    }

    /// Compiles the tree for repeated evaluation. Compile once per subscription.
    public func compile() -> CompiledPredicate { CompiledPredicate(root) }

    /// Evaluates once (compiles each call; use `compile()` for repeated evaluation).
    public func evaluate(_ record: PredicateRecord) -> Bool { compile().evaluate(record) }

    /// The top-level AND conjuncts with what an index can use from each.
    public var conjuncts: [PredicateConjunct] {
        root.conjuncts.map(PredicateConjunct.init)
    }
}
