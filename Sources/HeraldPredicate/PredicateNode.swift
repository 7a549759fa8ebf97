/// The syntax tree both predicate forms (format strings and `filterBy`) compile to.
///
/// Equality ignores source positions (see `SourceAnchor`): two trees are equal when they
/// have the same meaning and shape. Compounds are flattened (`a AND (b AND c)` is one AND).
public indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    /// All children match (`AND`, `&&`).
    case and([PredicateNode])
    /// Any child matches (`OR`, `||`). The anchor is the first OR keyword.
    case or([PredicateNode], SourceAnchor)
    /// Logical negation (`NOT`, `!`). The anchor is the NOT keyword.
    case not(PredicateNode, SourceAnchor)
    case comparison(Comparison)
    case tokens(TokenSearch)

    /// The top-level conjuncts: the children of a top-level AND, otherwise the node itself.
    public var conjuncts: [PredicateNode] {
        if case .and(let children) = self { return children }
        return [self]
    }
}
