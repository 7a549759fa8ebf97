/// One lexical token of an NSPredicate format string, with where it starts.
struct PredicateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A bare word: key name, keyword (case-insensitive) or selector such as
        /// `distanceToLocation:fromLocation:`.
        case identifier(String)
        /// `#word`: a key name even when `word` is a reserved keyword.
        case escapedIdentifier(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `%@` (and `%d`, `%f`…) with its 0-based argument index.
        case valueArgument(Int)
        /// `%K` with its 0-based argument index.
        case keyArgument(Int)
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot
        /// `=` `==` `!=` `<>` `<` `>` `<=` `=<` `>=` `=>` `&&` `||` `!`
        case symbol(String)
        case end
    }

    var kind: Kind
    var position: SourcePosition
    /// The source text of the token, for error messages.
    var text: String
}
