import HeraldPredicate

/// One way of looking a record up in a query bucket: which field, which folding, which kind
/// of key. A subscription is filed under keys of some probes; a change looks up the keys its
/// record offers for every probe in use in its bucket.
struct Probe: Hashable, Sendable {
    enum Kind: UInt8, Sendable, Comparable {
        /// Equality and membership on the (folded) value.
        case value
        /// The first `length` characters of the folded string (BEGINSWITH, LIKE 'ab*').
        case prefix
        /// The last `length` characters of the folded string (ENDSWITH, LIKE '*ab').
        case suffix
        /// Every run of `length` characters (3 or 6, `Grams`) of the folded string
        /// (substring CONTAINS, LIKE '*abc*').
        case gram
        /// Full-text search tokens (`field == nil`: every string field).
        case token
        /// Geographic grid cell at level `length` of a location.
        case cell

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    var kind: Kind
    /// The record field; `nil` only for an all-fields token search.
    var field: String?
    /// `[c]`/`[d]` folding of string values (empty for numbers, tokens and cells).
    var options: Comparison.Options
    /// Prefix, suffix or run length in characters, or the cell level.
    var length: Int

    init(_ kind: Kind, field: String?, options: Comparison.Options = [], length: Int = 0) {
        self.kind = kind
        self.field = field
        self.options = options
        self.length = length
    }
}

/// A subscription's place in a bucket: a probe and one key it offers.
struct PostingKey: Hashable, Sendable {
    var probe: Probe
    var value: IndexKey
}

/// Every way a subscription may be found. It is a candidate for a record when any entry
/// hits; an empty plan never hits (FALSEPREDICATE, a token search of stop words only).
struct IndexPlan: Sendable, Hashable {
    enum Entry: Sendable, Hashable {
        case posting(PostingKey)
        /// Numeric range, bounds inclusive (a strict bound is checked by the predicate).
        case range(field: String, lower: Double, upper: Double)
    }

    var entries: [Entry]

    /// How many candidates the plan is expected to bring, roughly; lower is better.
    var cost: Int {
        entries.reduce(0) { total, entry in
            switch entry {
            case .posting(let key):
                switch key.probe.kind {
                case .value: total + 1
                case .prefix, .suffix: total + 1 + 6 / max(1, key.probe.length)
                case .token: total + 2
                case .gram: total + 1 + 6 / max(1, key.probe.length)
                case .cell: total + 4
                }
            case .range: total + 8
            }
        }
    }
}
