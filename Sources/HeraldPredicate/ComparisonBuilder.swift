/// Turns a parsed `left op right` into a syntax-tree node, checking operand shapes and
/// normalizing equivalent spellings.
enum ComparisonBuilder {
    static func build(
        modifier: Comparison.Modifier, left: ParsedOperand, op parsed: PredicateParser.ParsedOperator,
        options: Comparison.Options, right: ParsedOperand,
        anchor: SourceAnchor, operatorToken: PredicateToken, optionsAnchor: SourceAnchor?
    ) throws(RecordPredicateError) -> PredicateNode {
        let opAnchor = SourceAnchor(operatorToken.position)
        func bad(_ reason: String, at position: SourcePosition, text: String = "") -> RecordPredicateError {
            RecordPredicateError(.invalidOperand, reason, at: position, text: text)
        }

        // Token searches.
        let isTokenSearch: Bool
        var tokenField: PredicateKey?
        switch (parsed, left) {
        case (.tokenMatches, .key(let k)):
            isTokenSearch = true
            tokenField = k.name.lowercased() == "alltokens" ? nil : k
        case (.tokenMatches, .evaluatedObject):
            isTokenSearch = true
        case (.tokenMatches, _):
            throw bad("TOKENMATCHES needs allTokens (or a key) on its left", at: left.position)
        case (.comparison(.contains), .evaluatedObject):
            isTokenSearch = true
        case (_, .evaluatedObject):
            throw bad("SELF can only be used as SELF CONTAINS 'words'", at: left.position, text: "SELF")
        default:
            isTokenSearch = false
        }
        if isTokenSearch {
            guard case .constant(.string(let text), _) = right else {
                throw bad("a token search needs a string of words on its right", at: right.position, text: operatorToken.text)
            }
            guard modifier == .direct else {
                throw bad("ANY, ALL and NONE do not apply to a token search", at: anchor.position)
            }
            return .tokens(TokenSearch(text: text, field: tokenField, anchor: anchor))
        }
        guard case .comparison(var op) = parsed else {
            throw bad("TOKENMATCHES needs allTokens on its left", at: left.position)
        }
        if case .evaluatedObject = right {
            throw bad("SELF can only be used as SELF CONTAINS 'words'", at: right.position, text: "SELF")
        }

        var lhs = left
        var rhs = right
        // Put the key (or distance) on the left when a constant was written first.
        if modifier == .direct, case .constant = lhs, !isConstant(rhs) {
            if let mirrored = op.mirrored {
                op = mirrored
                swap(&lhs, &rhs)
            } else if op == .in, case .key = rhs {
                op = .contains
                swap(&lhs, &rhs)
            } else if op == .contains, case .key = rhs {
                op = .in
                swap(&lhs, &rhs)
            }
        }
        if modifier != .direct, !isKey(lhs) {
            throw bad("\(modifier.rawValue) needs a list key on its left", at: lhs.position)
        }
        if case .distance = rhs {
            throw bad("distanceToLocation:fromLocation: must be compared with a number of kilometres", at: rhs.position)
        }
        if case .distance = lhs {
            guard case .constant(let radius, _) = rhs, radius.isPlainNumber else {
                throw bad("distanceToLocation:fromLocation: must be compared with a number of kilometres", at: rhs.position)
            }
            guard op.mirrored != nil else {
                throw bad("distanceToLocation:fromLocation: takes <, <=, >, >=, == or !=", at: operatorToken.position, text: operatorToken.text)
            }
        }
        switch op {
        case .between:
            guard case .constant(.list(let bounds), _) = rhs, bounds.count == 2 else {
                throw bad("BETWEEN needs two bounds: {low, high}", at: rhs.position)
            }
        case .in:
            if case .constant(let v, let p) = rhs {
                switch v {
                case .list, .string: break
                default: throw bad("IN needs a list {…} or a string on its right", at: p)
                }
            }
        default:
            break
        }
        return .comparison(Comparison(
            lhs.expression, op, rhs.expression, modifier: modifier, options: options,
            anchor: anchor, operatorAnchor: opAnchor, optionsAnchor: optionsAnchor))
    }

    private static func isConstant(_ e: ParsedOperand) -> Bool {
        if case .constant = e { return true }
        return false
    }

    private static func isKey(_ e: ParsedOperand) -> Bool {
        if case .key = e { return true }
        return false
    }
}
