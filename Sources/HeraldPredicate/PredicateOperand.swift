/// One side of a comparison (an operand).
public enum PredicateOperand: Sendable, Hashable {
    /// A record field or metadata key.
    case key(PredicateKey)
    /// `SELF`: the record itself (used by `SELF CONTAINS 'tokens'`).
    case evaluatedObject
    /// A literal or substituted value.
    case constant(PredicateValue)
    /// `distanceToLocation:fromLocation:(key, location)`: kilometres between a LOCATION
    /// field and a fixed point.
    case distance(PredicateKey, latitude: Double, longitude: Double)

    /// The key when this expression is a plain key.
    public var key: PredicateKey? {
        if case .key(let k) = self { return k }
        return nil
    }

    /// The value when this expression is a constant.
    public var constant: PredicateValue? {
        if case .constant(let v) = self { return v }
        return nil
    }
}
