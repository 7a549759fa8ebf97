import HeraldModel

/// Turns a `filterBy` list into the same syntax tree a format string gives.
///
/// Errors carry the 1-based clause number as their line (column 1) and the field name.
enum FilterCompiler {
    static let allFieldsNames: Set<String> = ["", "allTokens", "___all", "self", "SELF"]

    static func compile(_ clauses: [FilterClause]) throws(RecordPredicateError) -> PredicateNode {
        var nodes: [PredicateNode] = []
        for (i, clause) in clauses.enumerated() {
            let node = try compile(clause, position: SourcePosition(line: i + 1, column: 1))
            if case .and(let inner) = node { nodes += inner } else { nodes.append(node) }
        }
        switch nodes.count {
        case 0: return .constant(true)
        case 1: return nodes[0]
        default: return .and(nodes)
        }
    }

    static func compile(_ clause: FilterClause, position: SourcePosition) throws(RecordPredicateError) -> PredicateNode {
        let anchor = SourceAnchor(position)
        let value = PredicateValue(clause.fieldValue)
        func bad(_ reason: String) -> RecordPredicateError {
            RecordPredicateError(.invalidFilter, "clause \(position.line) (\(clause.comparator.rawValue)): \(reason)", at: position, text: clause.fieldName)
        }
        func list() throws(RecordPredicateError) -> [PredicateValue] {
            guard case .list(let items) = value else { throw bad("fieldValue must be a list") }
            return items
        }
        func text() throws(RecordPredicateError) -> String {
            guard case .string(let s) = value else { throw bad("fieldValue must be a STRING") }
            return s
        }
        let isTokens = clause.comparator == .containsAllTokens || clause.comparator == .containsAnyTokens
        let tokenField: PredicateKey?
        let key: PredicateKey
        if isTokens && allFieldsNames.contains(clause.fieldName) {
            tokenField = nil
            key = PredicateKey("allTokens", anchor: anchor)
        } else {
            do {
                key = try PredicateParser.keyFromArgument(clause.fieldName, at: position)
            } catch {
                throw bad("'\(clause.fieldName)' is not a valid field name")
            }
            tokenField = key
        }
        func compare(_ op: Comparison.Operator, _ v: PredicateValue, modifier: Comparison.Modifier = .direct) -> PredicateNode {
            .comparison(Comparison(.key(key), op, .constant(v), modifier: modifier, anchor: anchor, operatorAnchor: anchor))
        }
        func not(_ node: PredicateNode) -> PredicateNode { .not(node, anchor) }
        func and(_ nodes: [PredicateNode]) -> PredicateNode {
            nodes.count == 1 ? nodes[0] : (nodes.isEmpty ? .constant(true) : .and(nodes))
        }

        switch clause.comparator {
        case .equals: return compare(.equal, value)
        case .notEquals: return compare(.notEqual, value)
        case .lessThan: return compare(.less, value)
        case .lessThanOrEquals: return compare(.lessOrEqual, value)
        case .greaterThan: return compare(.greater, value)
        case .greaterThanOrEquals: return compare(.greaterOrEqual, value)
        case .near:
            guard case .location(let lat, let lon) = value else { throw bad("fieldValue must be a LOCATION") }
            guard let metres = clause.distance, metres.isFinite, metres >= 0 else {
                throw bad("NEAR needs a distance in metres")
            }
            return .comparison(Comparison(
                .distance(key, latitude: lat, longitude: lon), .less, .constant(.double(metres / 1000)),
                anchor: anchor, operatorAnchor: anchor))
        case .containsAnyTokens:
            return .tokens(TokenSearch(text: try text(), field: tokenField, anchor: anchor))
        case .containsAllTokens:
            let search = TokenSearch(text: try text(), field: tokenField, anchor: anchor)
            if search.tokens.count <= 1 { return .tokens(search) }
            return and(search.tokens.map { .tokens(TokenSearch(text: $0, field: tokenField, anchor: anchor)) })
        case .in: return compare(.in, .list(try list()))
        case .notIn: return not(compare(.in, .list(try list())))
        case .listContains: return compare(.contains, value)
        case .notListContains: return not(compare(.contains, value))
        case .listContainsAny: return compare(.in, .list(try list()), modifier: .any)
        case .listContainsAll: return and(try list().map { compare(.contains, $0) })
        // The NOT_ forms are exactly the negations of their positive forms, as NOT_LIST_CONTAINS
        // is of LIST_CONTAINS: a missing field matches them.
        case .notListContainsAny: return not(compare(.in, .list(try list()), modifier: .any))
        case .notListContainsAll:
            // NOT (a AND b): outside CloudKit's format-string rules, so the strict check of a
            // filterBy list lets it through (RecordPredicate.init(filterBy:)); an empty list
            // of values is LIST_CONTAINS_ALL's TRUEPREDICATE negated.
            let items = try list()
            return items.isEmpty ? .constant(false) : not(and(items.map { compare(.contains, $0) }))
        case .beginsWith: return compare(.beginsWith, .string(try text()))
        case .notBeginsWith: return not(compare(.beginsWith, .string(try text())))
        case .listMemberBeginsWith: return compare(.beginsWith, .string(try text()), modifier: .any)
        case .notListMemberBeginsWith: return not(compare(.beginsWith, .string(try text()), modifier: .any))
        }
    }
}
