/// A comparison between two expressions: `[modifier] left operator[options] right`.
public struct Comparison: Sendable, Hashable {
    /// The comparison operator (aliases such as `=`, `<>`, `=<` are folded at parse time).
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        /// Inclusive range: the right side is a two-element list `{lo, hi}`.
        case between = "BETWEEN"
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        /// List membership on lists, substring test on strings.
        case contains = "CONTAINS"
        /// Wildcards `*` (any run) and `?` (one character).
        case like = "LIKE"
        /// Membership of the left value in the right list (or substring of the right string).
        case `in` = "IN"

        /// The operator with its operands swapped (`<` ↔ `>`), when there is one.
        var mirrored: Operator? {
            switch self {
            case .equal, .notEqual: self
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            case .greaterOrEqual: .lessOrEqual
            default: nil
            }
        }

        /// Whether this operator is a string operator (takes `[c]`/`[d]` in NSPredicate).
        public var isStringOperator: Bool {
            switch self {
            case .beginsWith, .endsWith, .contains, .like: true
            default: false
            }
        }
    }

    /// How a list-valued left side is quantified.
    public enum Modifier: String, Sendable, Hashable, CaseIterable {
        /// No modifier: the left side is compared as a whole.
        case direct = ""
        /// `ANY` / `SOME`: at least one element matches.
        case any = "ANY"
        /// `ALL`: every element matches (true for an empty list).
        case all = "ALL"
        /// `NONE`: no element matches.
        case none = "NONE"
    }

    /// String comparison options `[c]`, `[d]`, `[cd]`.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: UInt8
        /// Creates options from bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `[c]`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)

        /// `c`, `d`, `cd` or the empty string.
        public var letters: String {
            (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        }
    }

    /// `ANY`, `ALL`, `NONE` or none.
    public var modifier: Modifier
    /// The left operand: a key, a distance, or (rarely) a constant.
    public var left: PredicateOperand
    /// The operator.
    public var op: Operator
    /// `[c]`, `[d]`, `[cd]` (empty when none were written).
    public var options: Options
    /// The right operand: usually a constant.
    public var right: PredicateOperand
    /// Where the comparison starts (its modifier or left side).
    public var anchor: SourceAnchor
    /// Where the operator was written.
    public var operatorAnchor: SourceAnchor
    /// Where the `[…]` options were written (the operator's anchor when there are none).
    public var optionsAnchor: SourceAnchor

    /// Creates a comparison.
    public init(
        _ left: PredicateOperand, _ op: Operator, _ right: PredicateOperand,
        modifier: Modifier = .direct, options: Options = [],
        anchor: SourceAnchor = .none, operatorAnchor: SourceAnchor = .none, optionsAnchor: SourceAnchor? = nil
    ) {
        self.modifier = modifier
        self.left = left
        self.op = op
        self.options = options
        self.right = right
        self.anchor = anchor
        self.operatorAnchor = operatorAnchor
        self.optionsAnchor = optionsAnchor ?? operatorAnchor
    }
}
