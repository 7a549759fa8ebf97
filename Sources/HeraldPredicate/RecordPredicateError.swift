/// The one error type of `HeraldPredicate`: what went wrong, why, and where.
///
/// Thrown for any bad input (format strings, `filterBy` clauses, arguments, strict CloudKit
/// rules). Never a crash: every input either parses or throws this.
public struct RecordPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is. A closed set.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A character that starts no token.
        case unexpectedCharacter
        /// A quoted string without its closing quote.
        case unterminatedString
        /// A backslash escape that is not one of `\n \t \r \0 \\ \' \" \uXXXX`.
        case invalidEscape
        /// A malformed or out-of-range number.
        case invalidNumber
        /// A token where the grammar expects something else.
        case unexpectedToken
        /// The text ended in the middle of a predicate.
        case unexpectedEnd
        /// NSPredicate syntax Herald does not implement (SUBQUERY, MATCHES, arithmetic…).
        case unsupportedSyntax
        /// A key name or key path that is not usable.
        case invalidKey
        /// A `%@`/`%K` with no argument at its index.
        case missingArgument
        /// An argument of the wrong kind for its place (e.g. a number for `%K`).
        case invalidArgument
        /// An operand that does not fit its operator (e.g. BETWEEN without two bounds).
        case invalidOperand
        /// Parentheses or NOTs nested deeper than the parser allows.
        case nestingTooDeep
        /// A format string longer than the parser accepts.
        case tooLong
        /// Refused because strict CloudKit rules were asked for.
        case cloudKitRule
        /// A `filterBy` clause that cannot be understood.
        case invalidFilter
    }

    /// What kind of problem.
    public var code: Code
    /// A sentence for a client developer.
    public var reason: String
    /// Where it was found.
    public var position: SourcePosition
    /// The offending text (a token, a key, a clause's field name); may be empty.
    public var text: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String, at position: SourcePosition, text: String = "") {
        self.code = code
        self.reason = reason
        self.position = position
        self.text = text
    }

    public var description: String {
        text.isEmpty
            ? "\(position): \(reason)"
            : "\(position): \(reason) (at '\(text)')"
    }
}
