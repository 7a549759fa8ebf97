/// One thing CloudKit would refuse in a predicate, with where it is and why.
public struct PredicateDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Which CloudKit rule is broken. A closed set.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// `OR` / `||`.
        case or
        /// The `ALL` modifier.
        case all
        /// The `NONE` modifier.
        case none
        /// `ENDSWITH`.
        case endsWith
        /// `LIKE`.
        case like
        /// A dotted key path (`a.b`).
        case keyPath
        /// A key that does not match `[A-Za-z][A-Za-z0-9_]*`.
        case invalidKeyName
        /// `NOT` around an AND.
        case notOverAnd
        /// `NOT` around a token search.
        case notOverTokenSearch
        /// `NOT` around a distance test.
        case notOverDistance
        /// `NOT` around BETWEEN.
        case notOverBetween
        /// `CONTAINS` (or `IN` a string) used as a substring test on a non-list field.
        case substringContains
        /// `[c]`, `[d]`… on an operator CloudKit does not accept them on.
        case stringOptions
        /// A comparison whose right side is not a constant, or whose left side is not a key.
        case nonConstantOperand
        /// A distance test other than "inside a radius" (`<`, `<=`).
        case distanceNotInsideRadius
        /// `== NULL` / `!= NULL`.
        case nullComparison
        /// An operator or constant that does not fit the field's type in the schema
        /// (BEGINSWITH on a number, ANY on a scalar, a distance from a non-LOCATION field,
        /// a string compared with a number field or the reverse).
        case typeMismatch
    }

    /// Which rule.
    public var code: Code
    /// A sentence for a client developer.
    public var message: String
    /// Where the offending construct starts.
    public var position: SourcePosition
    /// The offending text (keyword, key, options).
    public var text: String

    /// Creates a diagnostic.
    public init(_ code: Code, _ message: String, at position: SourcePosition, text: String = "") {
        self.code = code
        self.message = message
        self.position = position
        self.text = text
    }

    /// A keyword CloudKit does not support (the diagnostic's text), and what to write instead.
    static func unsupported(_ code: Code, _ keyword: String, _ advice: String, at position: SourcePosition) -> Self {
        PredicateDiagnostic(code, "CloudKit does not support \(keyword); \(advice)", at: position, text: keyword)
    }

    public var description: String { "\(position): \(message)" }
}
