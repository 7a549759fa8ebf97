import Foundation

/// Operands: keys, values, arrays and function calls.
extension PredicateParser {
    /// An operand: key path, `%K`, SELF, literal, `%@`, `{…}`, or a function call.
    mutating func parseExpression() throws(RecordPredicateError) -> ParsedOperand {
        let t = current
        switch t.kind {
        case .escapedIdentifier(let name):
            _ = advance()
            return .key(try parseKeyPath(first: name, at: t.position))
        case .keyArgument(let i):
            _ = advance()
            let argument = try argument(i, at: t)
            guard let name = argument.keyName else {
                throw RecordPredicateError(.invalidArgument, "argument \(i + 1) for %K must be a string naming a key", at: t.position, text: t.text)
            }
            return .key(try Self.keyFromArgument(name, at: t.position))
        case .valueArgument(let i):
            _ = advance()
            return .constant(try argument(i, at: t).predicateValue, t.position)
        case .string(let s):
            _ = advance()
            return .constant(.string(s), t.position)
        case .integer(let i):
            _ = advance()
            return .constant(.int(i), t.position)
        case .double(let d):
            _ = advance()
            return .constant(.double(d), t.position)
        case .leftBrace:
            return .constant(try parseArray(), t.position)
        case .identifier(let name):
            let upper = name.uppercased()
            if upper == "SUBQUERY" || (peekToken().kind == .leftParen && ["FUNCTION", "CAST", "FETCH"].contains(upper)) {
                throw RecordPredicateError(.unsupportedSyntax, "\(upper) is not supported", at: t.position, text: name)
            }
            if peekToken().kind == .leftParen {
                return try parseFunction(name)
            }
            switch upper {
            case "TRUE", "YES": _ = advance(); return .constant(.bool(true), t.position)
            case "FALSE", "NO": _ = advance(); return .constant(.bool(false), t.position)
            case "NULL", "NIL": _ = advance(); return .constant(.null, t.position)
            case "SELF":
                _ = advance()
                if current.kind == .dot {
                    throw RecordPredicateError(.unsupportedSyntax, "SELF.key is not supported; write the key alone", at: current.position, text: ".")
                }
                return .evaluatedObject(t.position)
            default:
                if Self.reservedWords.contains(upper) {
                    throw unexpected("expected a key or a value; '\(name)' is a keyword (write #\(name) for a key of that name)")
                }
                _ = advance()
                return .key(try parseKeyPath(first: name, at: t.position))
            }
        default:
            throw unexpected("expected a key or a value")
        }
    }

    mutating func parseKeyPath(first: String, at position: SourcePosition) throws(RecordPredicateError) -> PredicateKey {
        if Self.hasColon(first) {
            throw RecordPredicateError(.invalidKey, "'\(first)' is not a key; only distanceToLocation:fromLocation:(…) is a function", at: position, text: first)
        }
        var components = [first]
        while current.kind == .dot {
            _ = advance()
            switch current.kind {
            case .identifier(let name) where !Self.hasColon(name):
                components.append(name)
            case .escapedIdentifier(let name):
                components.append(name)
            default:
                throw unexpected("expected a key name after '.'")
            }
            _ = advance()
        }
        return PredicateKey(components, anchor: SourceAnchor(position))
    }

    /// Whether a key name holds a `:` (a function's selector, not a key), read from its
    /// UTF-8: Foundation's `contains` for strings was a twentieth of parsing.
    static func hasColon(_ name: String) -> Bool { name.utf8.contains(UInt8(ascii: ":")) }

    /// Validates a `%K` argument: identifiers separated by dots, nothing else.
    static func keyFromArgument(_ name: String, at position: SourcePosition) throws(RecordPredicateError) -> PredicateKey {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            guard let first = part.unicodeScalars.first, PredicateLexer.isIdentifierStart(first),
                  part.unicodeScalars.allSatisfy(PredicateLexer.isIdentifierPart) else {
                throw RecordPredicateError(.invalidKey, "'\(name)' is not a valid key name", at: position, text: name)
            }
        }
        return PredicateKey(parts, anchor: SourceAnchor(position))
    }

    func argument(_ i: Int, at token: PredicateToken) throws(RecordPredicateError) -> PredicateArgument {
        guard i >= 0, i < arguments.count else {
            throw RecordPredicateError(.missingArgument, "no argument \(i + 1) for \(token.text) (\(arguments.count) given)", at: token.position, text: token.text)
        }
        return arguments[i]
    }

    /// `{a, b, …}`: constants only (literals, `%@`, value functions, nested arrays).
    mutating func parseArray() throws(RecordPredicateError) -> PredicateValue {
        _ = advance() // {
        try enter()
        defer { depth -= 1 }
        var items: [PredicateValue] = []
        if current.kind == .rightBrace {
            _ = advance()
            return .list(items)
        }
        while true {
            let t = current
            guard case .constant(let v, _) = try parseExpression() else {
                throw RecordPredicateError(.invalidOperand, "array elements must be constants", at: t.position, text: t.text)
            }
            items.append(v)
            if current.kind == .comma {
                _ = advance()
                continue
            }
            try expect(.rightBrace, "',' or '}'")
            return .list(items)
        }
    }

    /// Function calls: `distanceToLocation:fromLocation:(key, location)` and Herald's typed
    /// literals `TIMESTAMP(ms)`, `REFERENCE('name')`, `LOCATION(lat, lon)`, `BYTES('base64')`.
    mutating func parseFunction(_ name: String) throws(RecordPredicateError) -> ParsedOperand {
        let nameToken = advance()
        _ = advance() // (
        try enter()
        defer { depth -= 1 }
        var args: [ParsedOperand] = []
        var argTokens: [PredicateToken] = []
        if current.kind != .rightParen {
            while true {
                argTokens.append(current)
                args.append(try parseExpression())
                if current.kind == .comma { _ = advance(); continue }
                break
            }
        }
        try expect(.rightParen, "',' or ')'")
        return try FunctionCall.build(name: name, nameToken: nameToken, args: args, argTokens: argTokens)
    }
}
