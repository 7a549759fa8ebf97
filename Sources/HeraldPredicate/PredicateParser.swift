import Foundation

/// Parses an NSPredicate format string into a `PredicateNode`.
///
/// Recursive descent over the tokens of `PredicateLexer`. Precedence, loosest first:
/// `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparison. Keywords are case-insensitive.
/// Arguments are substituted as syntax-tree values, never as text.
///
/// Normalizations (so that equivalent spellings give equal trees): operator aliases fold
/// (`=`→`==`, `<>`→`!=`, `=<`→`<=`, `=>`→`>=`, `SOME`→`ANY`); a constant on the left of a
/// key is moved right (`5 < x` → `x > 5`, `'a' IN tags` → `tags CONTAINS 'a'`); nested
/// ANDs/ORs are flattened; `SELF CONTAINS 'text'` and `allTokens TOKENMATCHES 'text'`
/// become token searches.
struct PredicateParser {
    /// Deepest nesting of parentheses and NOTs accepted (guards the stack).
    static let maxDepth = 128
    /// Longest format string accepted, in Unicode scalars (guards memory and time).
    static let maxLength = 65_536

    /// Words that cannot be bare key names (write `#word` to use one as a key).
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "TRUEPREDICATE", "FALSEPREDICATE", "TOKENMATCHES", "SUBQUERY",
    ]

    let tokens: [PredicateToken]
    let arguments: [PredicateArgument]
    var index = 0
    var depth = 0
    /// Set by a NOT: a `(` right after it groups the NOT's own operand and was counted with
    /// the NOT, so `NOT (…)` — the canonical rendering of `!…` — nests as deep as `!…`.
    var notOperandPending = false

    /// Lexes `text`; throws on the first lexical error.
    init(_ text: String, arguments: [PredicateArgument]) throws(RecordPredicateError) {
        if text.unicodeScalars.count > Self.maxLength {
            throw RecordPredicateError(.tooLong, "predicate is longer than \(Self.maxLength) characters", at: .start)
        }
        var lexer = PredicateLexer(text)
        self.tokens = try lexer.tokenize()
        self.arguments = arguments
    }

    /// Parses the whole text as one predicate.
    mutating func parse() throws(RecordPredicateError) -> PredicateNode {
        let node = try parseOr()
        guard current.kind == .end else {
            throw unexpected("expected AND, OR or the end of the predicate")
        }
        return node
    }

    // MARK: - Tokens

    var current: PredicateToken { tokens[index] }
    func peekToken(_ ahead: Int = 1) -> PredicateToken {
        tokens[min(index + ahead, tokens.count - 1)]
    }

    mutating func advance() -> PredicateToken {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    /// The upper-cased word when the current token is a bare identifier.
    var keyword: String? {
        if case .identifier(let name) = current.kind { return name.uppercased() }
        return nil
    }

    private func isSymbol(_ s: String...) -> Bool {
        if case .symbol(let sym) = current.kind { return s.contains(sym) }
        return false
    }

    func unexpected(_ reason: String) -> RecordPredicateError {
        if current.kind == .end {
            return RecordPredicateError(.unexpectedEnd, "unexpected end of predicate; " + reason, at: current.position)
        }
        return RecordPredicateError(.unexpectedToken, reason, at: current.position, text: current.text)
    }

    mutating func expect(_ kind: PredicateToken.Kind, _ what: String) throws(RecordPredicateError) {
        guard current.kind == kind else { throw unexpected("expected \(what)") }
        _ = advance()
    }

    mutating func enter() throws(RecordPredicateError) {
        depth += 1
        if depth > Self.maxDepth {
            throw RecordPredicateError(.nestingTooDeep, "predicate is nested too deeply", at: current.position, text: current.text)
        }
    }

    // MARK: - Compounds

    private mutating func parseOr() throws(RecordPredicateError) -> PredicateNode {
        let first = try parseAnd()
        var children = [first]
        var orAnchor: SourceAnchor?
        while keyword == "OR" || isSymbol("||") {
            let t = advance()
            if orAnchor == nil { orAnchor = SourceAnchor(t.position) }
            children.append(try parseAnd())
        }
        guard let orAnchor else { return first }
        return .or(children.flatMap { child -> [PredicateNode] in
            if case .or(let inner, _) = child { return inner }
            return [child]
        }, orAnchor)
    }

    private mutating func parseAnd() throws(RecordPredicateError) -> PredicateNode {
        let first = try parseNot()
        var children = [first]
        while keyword == "AND" || isSymbol("&&") {
            _ = advance()
            children.append(try parseNot())
        }
        guard children.count > 1 else { return first }
        return .and(children.flatMap { child -> [PredicateNode] in
            if case .and(let inner) = child { return inner }
            return [child]
        })
    }

    private mutating func parseNot() throws(RecordPredicateError) -> PredicateNode {
        if keyword == "NOT" || isSymbol("!") {
            let t = advance()
            try enter()
            defer { depth -= 1 }
            notOperandPending = true
            return .not(try parseNot(), SourceAnchor(t.position))
        }
        let groupsNotOperand = notOperandPending
        notOperandPending = false
        return try parsePrimary(groupsNotOperand: groupsNotOperand)
    }

    private mutating func parsePrimary(groupsNotOperand: Bool = false) throws(RecordPredicateError) -> PredicateNode {
        if current.kind == .leftParen {
            _ = advance()
            if !groupsNotOperand { try enter() }
            defer { if !groupsNotOperand { depth -= 1 } }
            let inner = try parseOr()
            try expect(.rightParen, "')'")
            return inner
        }
        switch keyword {
        case "TRUEPREDICATE": _ = advance(); return .constant(true)
        case "FALSEPREDICATE": _ = advance(); return .constant(false)
        default: return try parseComparison()
        }
    }

    // MARK: - Comparisons

    private mutating func parseComparison() throws(RecordPredicateError) -> PredicateNode {
        let start = current.position
        var modifier = Comparison.Modifier.direct
        switch keyword {
        case "ANY", "SOME": modifier = .any
        case "ALL": modifier = .all
        case "NONE": modifier = .none
        default: break
        }
        if modifier != .direct { _ = advance() }
        let left = try parseExpression()
        let opToken = current
        let op = try parseOperator()
        var options = Comparison.Options()
        var optionsAnchor: SourceAnchor?
        if current.kind == .leftBracket {
            optionsAnchor = SourceAnchor(current.position)
            options = try parseOptions()
        }
        let right = try parseExpression()
        return try ComparisonBuilder.build(
            modifier: modifier, left: left, op: op, options: options, right: right,
            anchor: SourceAnchor(start), operatorToken: opToken, optionsAnchor: optionsAnchor)
    }

    /// Operators as parsed, before folding into `Comparison.Operator`.
    enum ParsedOperator: Equatable {
        case comparison(Comparison.Operator)
        case tokenMatches
    }

    private mutating func parseOperator() throws(RecordPredicateError) -> ParsedOperator {
        if case .symbol(let s) = current.kind {
            let op: Comparison.Operator? = switch s {
            case "=", "==": .equal
            case "!=", "<>": .notEqual
            case "<": .less
            case "<=", "=<": .lessOrEqual
            case ">": .greater
            case ">=", "=>": .greaterOrEqual
            default: nil
            }
            if let op {
                _ = advance()
                return .comparison(op)
            }
        }
        switch keyword {
        case "BEGINSWITH": _ = advance(); return .comparison(.beginsWith)
        case "ENDSWITH": _ = advance(); return .comparison(.endsWith)
        case "CONTAINS": _ = advance(); return .comparison(.contains)
        case "LIKE": _ = advance(); return .comparison(.like)
        case "IN": _ = advance(); return .comparison(.in)
        case "BETWEEN": _ = advance(); return .comparison(.between)
        case "TOKENMATCHES": _ = advance(); return .tokenMatches
        case "MATCHES":
            throw RecordPredicateError(.unsupportedSyntax, "MATCHES (regular expressions) is not supported; use LIKE", at: current.position, text: current.text)
        default:
            throw unexpected("expected a comparison operator (==, !=, <, >, <=, >=, BETWEEN, BEGINSWITH, CONTAINS, IN, …)")
        }
    }

    private mutating func parseOptions() throws(RecordPredicateError) -> Comparison.Options {
        _ = advance() // [
        guard case .identifier(let letters) = current.kind else {
            throw unexpected("expected string options such as c, d or cd")
        }
        var options = Comparison.Options()
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "l", "n": break // locale / normalized: accepted, no effect
            default:
                throw RecordPredicateError(.unexpectedToken, "unknown string option '\(letter)'; use c, d or cd", at: current.position, text: letters)
            }
        }
        _ = advance()
        try expect(.rightBracket, "']'")
        return options
    }
}
