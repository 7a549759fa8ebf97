extension PredicateNode {
    /// Every key the predicate reads (field names, canonical metadata names, dotted key
    /// paths), with `nil`-field token searches contributing nothing: they read every
    /// string field. Useful to know which fields of a change can affect a match.
    public var referencedKeys: Set<String> {
        var keys = Set<String>()
        collectKeys(into: &keys)
        return keys
    }

    /// Whether the predicate contains a token search over all string fields.
    public var searchesAllFields: Bool {
        switch self {
        case .constant, .comparison: false
        case .and(let children), .or(let children, _): children.contains { $0.searchesAllFields }
        case .not(let inner, _): inner.searchesAllFields
        case .tokens(let search): search.field == nil
        }
    }

    private func collectKeys(into keys: inout Set<String>) {
        switch self {
        case .constant:
            break
        case .and(let children), .or(let children, _):
            for child in children { child.collectKeys(into: &keys) }
        case .not(let inner, _):
            inner.collectKeys(into: &keys)
        case .tokens(let search):
            if let field = search.field { keys.insert(field.name) }
        case .comparison(let c):
            for operand in [c.left, c.right] {
                switch operand {
                case .key(let k), .distance(let k, _, _): keys.insert(k.name)
                case .constant, .evaluatedObject: break
                }
            }
        }
    }
}
