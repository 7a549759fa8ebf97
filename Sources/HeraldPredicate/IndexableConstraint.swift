/// What an index can key on: a field, an operator and constant operand(s).
///
/// Each case says exactly when the conjunct is true under `CompiledPredicate`'s
/// semantics, so that a conjunct answered by an index need not be evaluated again.
public enum IndexableConstraint: Sendable, Hashable {
    /// One end of a range.
    public struct Bound: Sendable, Hashable {
        /// The bound.
        public var value: PredicateValue
        /// Whether a value equal to the bound is inside.
        public var inclusive: Bool
        /// Creates a bound.
        public init(_ value: PredicateValue, inclusive: Bool) {
            self.value = value
            self.inclusive = inclusive
        }
    }

    /// `field == value` (no modifier): a scalar field equal to `value`.
    case equal(field: String, value: PredicateValue, options: Comparison.Options)
    /// `field IN {…}`, `ANY field IN {…}`, `ANY field == v`: the scalar field, or any
    /// element of a list field, equals one of `values`.
    case member(field: String, values: [PredicateValue], options: Comparison.Options)
    /// `field CONTAINS v`: list membership on a list field, a substring test on a STRING
    /// field (the index must know the field's type).
    case contains(field: String, value: PredicateValue, options: Comparison.Options)
    /// `<`, `<=`, `>`, `>=`, `BETWEEN` (no modifier).
    case range(field: String, lower: Bound?, upper: Bound?)
    /// `field BEGINSWITH prefix`; `anyElement` for `ANY field BEGINSWITH prefix`.
    case prefix(field: String, prefix: String, options: Comparison.Options, anyElement: Bool)
    /// A token search: any of the folded `tokens` in `field` (`nil`: every string field).
    case tokens(field: String?, tokens: [String])
    /// `distanceToLocation:fromLocation:(field, point) < kilometres` (`<=` when inclusive).
    case withinDistance(field: String, latitude: Double, longitude: Double, kilometres: Double, inclusive: Bool)

    /// The field the constraint is on (`nil` for an all-fields token search).
    public var field: String? {
        switch self {
        case .equal(let f, _, _), .member(let f, _, _), .contains(let f, _, _), .range(let f, _, _),
             .prefix(let f, _, _, _), .withinDistance(let f, _, _, _, _):
            f
        case .tokens(let f, _):
            f
        }
    }

    /// Extracts the constraint of a node, if it has an indexable shape.
    public init?(_ node: PredicateNode) {
        switch node {
        case .tokens(let search):
            self = .tokens(field: search.field?.name, tokens: search.tokens)
        case .comparison(let c):
            guard let constraint = Self.extract(c) else { return nil }
            self = constraint
        default:
            return nil
        }
    }

    private static func extract(_ c: Comparison) -> IndexableConstraint? {
        guard case .constant(let value) = c.right else { return nil }
        if case .distance(let key, let lat, let lon) = c.left {
            guard c.op == .less || c.op == .lessOrEqual, let km = value.numericValue else { return nil }
            return .withinDistance(field: key.name, latitude: lat, longitude: lon, kilometres: km, inclusive: c.op == .lessOrEqual)
        }
        guard case .key(let key) = c.left, !key.isKeyPath else { return nil }
        if case .null = value { return nil }
        let field = key.name
        switch (c.modifier, c.op) {
        case (.direct, .equal):
            if case .list = value { return nil }
            return .equal(field: field, value: value, options: c.options)
        case (.direct, .in), (.any, .in):
            guard case .list(let values) = value else { return nil }
            return .member(field: field, values: values, options: c.options)
        case (.any, .equal):
            return .member(field: field, values: [value], options: c.options)
        case (.direct, .contains):
            if case .list = value { return nil }
            return .contains(field: field, value: value, options: c.options)
        case (.direct, .less): return .range(field: field, lower: nil, upper: Bound(value, inclusive: false))
        case (.direct, .lessOrEqual): return .range(field: field, lower: nil, upper: Bound(value, inclusive: true))
        case (.direct, .greater): return .range(field: field, lower: Bound(value, inclusive: false), upper: nil)
        case (.direct, .greaterOrEqual): return .range(field: field, lower: Bound(value, inclusive: true), upper: nil)
        case (.direct, .between):
            guard case .list(let bounds) = value, bounds.count == 2 else { return nil }
            return .range(field: field, lower: Bound(bounds[0], inclusive: true), upper: Bound(bounds[1], inclusive: true))
        case (.direct, .beginsWith), (.any, .beginsWith):
            guard case .string(let prefix) = value else { return nil }
            return .prefix(field: field, prefix: prefix, options: c.options, anyElement: c.modifier == .any)
        default:
            return nil
        }
    }
}
