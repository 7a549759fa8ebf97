/// An operand as parsed, with its position.
enum ParsedOperand {
    case key(PredicateKey)
    case evaluatedObject(SourcePosition)
    case constant(PredicateValue, SourcePosition)
    case distance(PredicateKey, latitude: Double, longitude: Double, SourcePosition)

    var position: SourcePosition {
        switch self {
        case .key(let k): k.anchor.position
        case .evaluatedObject(let p), .constant(_, let p), .distance(_, _, _, let p): p
        }
    }

    var expression: PredicateOperand {
        switch self {
        case .key(let k): .key(k)
        case .evaluatedObject: .evaluatedObject
        case .constant(let v, _): .constant(v)
        case .distance(let k, let lat, let lon, _): .distance(k, latitude: lat, longitude: lon)
        }
    }
}
