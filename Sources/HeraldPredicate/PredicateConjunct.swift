/// One top-level AND conjunct of a predicate, with what an index can use from it.
///
/// A subscription index picks the most selective conjunct with a `constraint`, looks up
/// candidate subscriptions by it, and evaluates the rest (or simply the whole compiled
/// predicate) on the candidates.
public struct PredicateConjunct: Sendable, Hashable {
    /// The conjunct itself.
    public var node: PredicateNode
    /// The indexable shape of the conjunct, `nil` when it has none (OR, NOT, key against
    /// key, ENDSWITH, LIKE, ALL, NONE…).
    public var constraint: IndexableConstraint?

    /// Analyzes one conjunct.
    public init(_ node: PredicateNode) {
        self.node = node
        self.constraint = IndexableConstraint(node)
    }
}
