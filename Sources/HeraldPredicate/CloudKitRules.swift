import HeraldModel

/// Reports what CloudKit would refuse in a predicate Herald accepts (docs/cloudkit-behaviour.md §2).
///
/// Herald evaluates OR, ALL, NONE, ENDSWITH, LIKE, substring CONTAINS and string options,
/// but a subscription meant to behave exactly like CloudKit's can be checked here first.
/// Give the record type's field types when known: only then can a `CONTAINS` on a STRING
/// field (a substring test) be told from list membership.
public struct CloudKitRules: Sendable {
    /// Field name → type of the record type, when known.
    public var schema: [String: FieldType]?

    /// Creates a checker.
    public init(schema: [String: FieldType]? = nil) {
        self.schema = schema
    }

    /// Every violation in `node`, in source order.
    public func check(_ node: PredicateNode) -> [PredicateDiagnostic] {
        var out: [PredicateDiagnostic] = []
        walk(node, into: &out)
        return out.enumerated().sorted {
            ($0.element.position.offset, $0.element.position.line, $0.offset)
                < ($1.element.position.offset, $1.element.position.line, $1.offset)
        }.map(\.element)
    }

    private func walk(_ node: PredicateNode, into out: inout [PredicateDiagnostic]) {
        switch node {
        case .constant:
            break
        case .and(let children):
            for c in children { walk(c, into: &out) }
        case .or(let children, let anchor):
            out.append(.unsupported(.or, "OR", "save one subscription per alternative", at: anchor.position))
            for c in children { walk(c, into: &out) }
        case .not(let inner, let anchor):
            switch inner {
            case .and:
                out.append(PredicateDiagnostic(.notOverAnd, "CloudKit does not allow NOT around an AND; negate each comparison instead", at: anchor.position, text: "NOT"))
            case .tokens:
                out.append(PredicateDiagnostic(.notOverTokenSearch, "CloudKit does not allow NOT around a token search", at: anchor.position, text: "NOT"))
            case .comparison(let c) where isDistance(c):
                out.append(PredicateDiagnostic(.notOverDistance, "CloudKit does not allow NOT around a distance test; it only finds records inside a radius", at: anchor.position, text: "NOT"))
            case .comparison(let c) where c.op == .between:
                out.append(PredicateDiagnostic(.notOverBetween, "CloudKit does not allow NOT around BETWEEN; use < and > instead", at: anchor.position, text: "NOT"))
            default:
                break
            }
            walk(inner, into: &out)
        case .comparison(let c):
            check(c, into: &out)
        case .tokens(let search):
            if let field = search.field { checkKey(field, into: &out) }
        }
    }

    private func isDistance(_ c: Comparison) -> Bool {
        if case .distance = c.left { return true }
        return false
    }

    /// Quantifiers CloudKit refuses: the rule and what to write instead.
    private static let refusedModifiers: [Comparison.Modifier: (code: PredicateDiagnostic.Code, advice: String)] = [
        .all: (.all, "only ANY (or SOME) on lists"),
        .none: (.none, "use NOT (ANY …)"),
    ]

    /// Operators CloudKit refuses: the rule and what to write instead.
    private static let refusedOperators: [Comparison.Operator: (code: PredicateDiagnostic.Code, advice: String)] = [
        .endsWith: (.endsWith, "only BEGINSWITH"),
        .like: (.like, "use BEGINSWITH or a token search"),
    ]

    private func check(_ c: Comparison, into out: inout [PredicateDiagnostic]) {
        let at = c.anchor.position
        let opAt = c.operatorAnchor.position
        if let refused = Self.refusedModifiers[c.modifier] {
            out.append(.unsupported(refused.code, c.modifier.rawValue, refused.advice, at: at))
        }
        if let refused = Self.refusedOperators[c.op] {
            out.append(.unsupported(refused.code, c.op.rawValue, refused.advice, at: opAt))
        }
        switch c.left {
        case .key(let k):
            checkKey(k, into: &out)
        case .distance(let k, _, _):
            checkKey(k, into: &out)
            if c.op != .less && c.op != .lessOrEqual {
                out.append(PredicateDiagnostic(.distanceNotInsideRadius, "CloudKit only finds records inside a radius: compare the distance with <", at: opAt, text: c.op.rawValue))
            }
        default:
            out.append(PredicateDiagnostic(.nonConstantOperand, "CloudKit needs a field name on the left of a comparison", at: at))
        }
        switch c.right {
        case .key(let k):
            checkKey(k, into: &out)
            out.append(PredicateDiagnostic(.nonConstantOperand, "CloudKit compares a field with a constant only, not with another field", at: k.anchor.position, text: k.name))
        case .constant(.null):
            out.append(PredicateDiagnostic(.nullComparison, "CloudKit cannot compare with NULL", at: opAt, text: c.op.rawValue))
        default:
            break
        }
        if !c.options.isEmpty {
            let position = c.optionsAnchor.position
            out.append(PredicateDiagnostic(.stringOptions, "CloudKit does not take [\(c.options.letters)] on \(c.op.rawValue); its string comparisons are case- and diacritic-sensitive", at: position, text: "[\(c.options.letters)]"))
        }
        checkTypes(c, into: &out)
        if c.modifier == .direct, let key = c.left.key, isSubstringTest(c, key: key) {
            out.append(PredicateDiagnostic(.substringContains, "CloudKit does not support substring tests: \(c.op.rawValue) on the non-list field '\(key.name)'; use BEGINSWITH or SELF CONTAINS for words", at: opAt, text: c.op.rawValue))
        }
    }

    /// The type of a key: metadata types are fixed, fields come from the schema.
    private func type(of key: PredicateKey) -> FieldType? {
        switch key.metadata {
        case .recordName: .string
        case .creationDate, .modificationDate: .timestamp
        case .createdBy, .modifiedBy: .reference
        case nil: key.isKeyPath ? nil : schema?[key.name]
        }
    }

    /// Operator/constant against the field's type, for the clear cases only.
    private func checkTypes(_ c: Comparison, into out: inout [PredicateDiagnostic]) {
        let opAt = c.operatorAnchor.position
        if case .distance(let key, _, _) = c.left {
            if let t = type(of: key), t != .location {
                out.append(PredicateDiagnostic(.typeMismatch, "distanceToLocation:fromLocation: needs a LOCATION field; '\(key.name)' is \(t.rawValue)", at: key.anchor.position, text: key.name))
            }
            return
        }
        guard let key = c.left.key, let fieldType = type(of: key) else { return }
        if c.modifier != .direct, !fieldType.isList {
            out.append(PredicateDiagnostic(.typeMismatch, "\(c.modifier.rawValue) needs a list field; '\(key.name)' is \(fieldType.rawValue)", at: c.anchor.position, text: c.modifier.rawValue))
            return
        }
        let scalar = fieldType.elementType ?? fieldType
        if c.op == .beginsWith, scalar != .string {
            out.append(PredicateDiagnostic(.typeMismatch, "BEGINSWITH needs a STRING field; '\(key.name)' is \(fieldType.rawValue)", at: opAt, text: "BEGINSWITH"))
            return
        }
        guard case .constant(let value) = c.right else { return }
        var constants: [PredicateValue] = [value]
        if case .list(let items) = value { constants = items }
        let isNumberField = scalar == .int64 || scalar == .double || scalar == .timestamp
        for constant in constants {
            let mismatch: Bool
            switch constant {
            case .string: mismatch = isNumberField || scalar == .location || scalar == .bytes
            case .int, .double: mismatch = scalar == .string || scalar == .reference || scalar == .location
            default: mismatch = false
            }
            if mismatch {
                out.append(PredicateDiagnostic(.typeMismatch, "'\(key.name)' is \(fieldType.rawValue) and cannot be compared with \(PredicateRenderer.render(constant))", at: opAt, text: c.op.rawValue))
                return
            }
        }
    }

    /// `key CONTAINS 'x'` on a non-list field, or `key IN 'string'`.
    private func isSubstringTest(_ c: Comparison, key: PredicateKey) -> Bool {
        switch (c.op, c.right) {
        case (.in, .constant(.string)):
            return true
        case (.contains, .constant(let v)):
            if case .list = v { return false }
            if let meta = key.metadata { return meta == .recordName }
            guard let type = schema?[key.name] else { return false }
            return !type.isList
        default:
            return false
        }
    }

    private func checkKey(_ key: PredicateKey, into out: inout [PredicateDiagnostic]) {
        if key.isKeyPath {
            out.append(PredicateDiagnostic(.keyPath, "CloudKit does not support key paths such as '\(key.name)'; use a field of the record", at: key.anchor.position, text: key.name))
            return
        }
        if !Self.isValidKeyName(key.name) {
            out.append(PredicateDiagnostic(.invalidKeyName, "'\(key.name)' is not a valid CloudKit field name: a letter followed by letters, digits or _", at: key.anchor.position, text: key.name))
        }
    }

    /// `[A-Za-z][A-Za-z0-9_]*`.
    public static func isValidKeyName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || PredicateLexer.isDigit($0) || $0 == "_") }
    }
}
