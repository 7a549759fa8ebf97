import HeraldModel
import HeraldPredicate

/// Decides where a predicate is filed: from the cheapest indexable conjunct of an AND, the
/// union of every branch of an OR, or nowhere (`nil`: a residual, a candidate for every
/// record of its bucket). Every record that satisfies the predicate hits the plan; the
/// plan may hit records that do not (the compiled predicate decides).
enum IndexPlanner {
    static func plan(_ node: PredicateNode) -> IndexPlan? {
        switch node {
        case .constant(let value):
            return value ? nil : IndexPlan(entries: [])
        case .and(let children):
            return children.compactMap(plan).min { $0.cost < $1.cost }
        case .or(let children, _):
            var entries: [IndexPlan.Entry] = []
            for child in children {
                guard let branch = plan(child) else { return nil }
                entries += branch.entries
            }
            return IndexPlan(entries: unique(entries))
        case .not:
            return nil
        case .tokens(let search):
            if let field = search.field?.name, isMetadata(field) { return nil }
            let probe = Probe(.token, field: search.field?.name)
            return IndexPlan(entries: search.tokens.map { .posting(PostingKey(probe: probe, value: .string($0))) })
        case .comparison(let comparison):
            return plan(comparison)
        }
    }

    /// The entries without repeats, in their first order. One entry (most plans) or two are
    /// checked without a set: hashing every entry into a new set was a quarter of planning
    /// when a match instance loads its subscriptions.
    private static func unique(_ entries: [IndexPlan.Entry]) -> [IndexPlan.Entry] {
        if entries.count < 2 { return entries }
        if entries.count == 2 { return entries[0] == entries[1] ? [entries[0]] : entries }
        var seen = Set<IndexPlan.Entry>()
        return entries.filter { seen.insert($0).inserted }
    }

    private static func isMetadata(_ field: String) -> Bool {
        MetadataKey(name: field) != nil
    }

    private static func posting(_ kind: Probe.Kind, _ field: String, _ options: Comparison.Options, _ value: IndexKey, length: Int = 0) -> IndexPlan.Entry {
        .posting(PostingKey(probe: Probe(kind, field: field, options: options, length: length), value: value))
    }

    private static func plan(_ comparison: Comparison) -> IndexPlan? {
        if let constraint = IndexableConstraint(.comparison(comparison)) {
            guard let field = constraint.field, !isMetadata(field) else { return nil }
            return plan(constraint, field: field)
        }
        // Shapes beyond CloudKit's that the index still serves: ENDSWITH and LIKE.
        guard case .key(let key) = comparison.left, !key.isKeyPath, !isMetadata(key.name),
              comparison.modifier == .direct || comparison.modifier == .any,
              case .constant(.string(let text)) = comparison.right
        else { return nil }
        switch comparison.op {
        case .endsWith: return affix(.suffix, key.name, comparison.options, text)
        case .like: return like(key.name, comparison.options, text)
        default: return nil
        }
    }

    private static func plan(_ constraint: IndexableConstraint, field: String) -> IndexPlan? {
        switch constraint {
        case .equal(_, let value, let options):
            guard let key = IndexKey(value, folding: options) else { return nil }
            return IndexPlan(entries: [valueEntry(field, options, key)])
        case .member(_, let values, let options):
            let keys = values.compactMap { IndexKey($0, folding: options) }
            guard keys.count == values.count else { return nil }
            return IndexPlan(entries: unique(keys.map { valueEntry(field, options, $0) }))
        case .contains(_, let value, let options):
            // Membership on a list field; a substring on a STRING field.
            guard let key = IndexKey(value, folding: options) else { return nil }
            guard case .string(let needle) = key else { return IndexPlan(entries: [valueEntry(field, options, key)]) }
            guard !hasCarriageReturn(needle), let gram = Grams.selective(of: needle) else { return nil }
            return IndexPlan(entries: [valueEntry(field, options, key), gramEntry(field, options, gram)])
        case .range(_, let lower, let upper):
            guard let low = bound(lower, default: -.infinity), let high = bound(upper, default: .infinity) else { return nil }
            guard low <= high else { return IndexPlan(entries: []) }
            return IndexPlan(entries: [.range(field: field, lower: low, upper: high)])
        case .prefix(_, let prefix, let options, _):
            return affix(.prefix, field, options, prefix)
        case .withinDistance(_, let latitude, let longitude, let kilometres, _):
            return GeoCells.plan(field: field, latitude: latitude, longitude: longitude, kilometres: kilometres)
        case .tokens:
            return nil
        }
    }

    private static func valueEntry(_ field: String, _ options: Comparison.Options, _ key: IndexKey) -> IndexPlan.Entry {
        // Folding only changes strings: numbers share one probe whatever the options.
        if case .number = key { return posting(.value, field, [], key) }
        return posting(.value, field, options, key)
    }

    /// A substring filed by one run of its characters (`Grams`), the run's length in the probe.
    private static func gramEntry(_ field: String, _ options: Comparison.Options, _ gram: String) -> IndexPlan.Entry {
        posting(.gram, field, options, .string(gram), length: gram.count)
    }

    /// Whether a needle holds a CR. The index cuts prefixes, suffixes and runs by characters,
    /// where CR LF is one; the evaluator compares `[c]` prefixes, substrings and LIKE patterns
    /// by their bytes, so `BEGINSWITH[c] 'a\r'` holds for "a\r\nb" while the record's first two
    /// characters are "a\r\n". Such needles are left residual (evaluated for every record).
    private static func hasCarriageReturn(_ text: String) -> Bool {
        text.unicodeScalars.contains("\r")
    }

    private static func bound(_ bound: IndexableConstraint.Bound?, default value: Double) -> Double? {
        guard let bound else { return value }
        let number: Double? = switch bound.value {
        case .int(let integer): Double(integer)
        case .timestamp(let milliseconds): Double(milliseconds)
        case .double(let double): double.isNaN ? nil : double
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
        return number
    }

    /// A BEGINSWITH / ENDSWITH test filed by its folded affix; an empty affix is always true.
    private static func affix(_ kind: Probe.Kind, _ field: String, _ options: Comparison.Options, _ text: String) -> IndexPlan? {
        let folded = options.fold(text)
        guard !folded.isEmpty, !hasCarriageReturn(folded) else { return nil }
        return IndexPlan(entries: [posting(kind, field, options, .string(folded), length: folded.count)])
    }

    /// LIKE: its leading literal as a prefix, else its trailing literal as a suffix, else a
    /// run of characters of its longest literal run; a pattern without wildcards is an equality.
    private static func like(_ field: String, _ options: Comparison.Options, _ pattern: String) -> IndexPlan? {
        guard !pattern.contains("\\") else { return nil }
        let folded = options.fold(pattern)
        if hasCarriageReturn(folded) { return nil }
        let runs = folded.split(omittingEmptySubsequences: false) { $0 == "*" || $0 == "?" }.map(String.init)
        if runs.count == 1 { return IndexPlan(entries: [valueEntry(field, options, .string(folded))]) }
        if let first = runs.first, !first.isEmpty {
            return IndexPlan(entries: [posting(.prefix, field, options, .string(first), length: first.count)])
        }
        if let last = runs.last, !last.isEmpty {
            return IndexPlan(entries: [posting(.suffix, field, options, .string(last), length: last.count)])
        }
        guard let longest = runs.max(by: { $0.count < $1.count }), let gram = Grams.selective(of: longest) else { return nil }
        return IndexPlan(entries: [gramEntry(field, options, gram)])
    }
}
