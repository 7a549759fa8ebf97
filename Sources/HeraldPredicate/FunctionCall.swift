import Foundation

/// The function calls a format string may contain.
///
/// - `distanceToLocation:fromLocation:(key, location)`: kilometres from a LOCATION field to
///   a point (either argument order);
/// - Herald's typed literals, so that every argument value has a textual form:
///   `TIMESTAMP(ms)`, `REFERENCE('recordName')`, `LOCATION(latitude, longitude)`,
///   `BYTES('base64')`. Their arguments may be `%@` substitutions.
enum FunctionCall {
    static let distanceName = "distanceToLocation:fromLocation:"

    static func build(
        name: String, nameToken: PredicateToken, args: [ParsedOperand], argTokens: [PredicateToken]
    ) throws(RecordPredicateError) -> ParsedOperand {
        let position = nameToken.position
        func bad(_ reason: String) -> RecordPredicateError {
            RecordPredicateError(.invalidOperand, reason, at: position, text: name)
        }
        func constants() -> [PredicateValue]? {
            var out: [PredicateValue] = []
            for a in args {
                guard case .constant(let v, _) = a else { return nil }
                out.append(v)
            }
            return out
        }
        switch name.uppercased() {
        case distanceName.uppercased():
            guard args.count == 2 else { throw bad("\(distanceName) takes a key and a location") }
            var key: PredicateKey?
            var point: (Double, Double)?
            for a in args {
                switch a {
                case .key(let k): key = k
                case .constant(.location(let lat, let lon), _): point = (lat, lon)
                default: break
                }
            }
            guard let key, let point else {
                throw bad("\(distanceName) takes a LOCATION key and a location (LOCATION(lat, lon) or a location argument)")
            }
            return .distance(key, latitude: point.0, longitude: point.1, position)
        case "TIMESTAMP":
            let values = constants() ?? []
            if values.count == 1 {
                switch values[0] {
                case .int(let ms), .timestamp(let ms):
                    return .constant(.timestamp(ms), position)
                case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9e15:
                    return .constant(.timestamp(Int64(d)), position)
                default: break
                }
            }
            throw bad("TIMESTAMP takes milliseconds since 1970 as an integer")
        case "REFERENCE":
            let values = constants() ?? []
            if values.count == 1 {
                switch values[0] {
                case .string(let n), .reference(let n): return .constant(.reference(n), position)
                default: break
                }
            }
            throw bad("REFERENCE takes a record name string")
        case "LOCATION":
            let values = constants() ?? []
            if values.count == 2, values[0].isPlainNumber, values[1].isPlainNumber,
               let lat = values[0].numericValue, let lon = values[1].numericValue {
                return .constant(.location(latitude: lat, longitude: lon), position)
            }
            if values.count == 1, case .location(let lat, let lon) = values[0] {
                return .constant(.location(latitude: lat, longitude: lon), position)
            }
            throw bad("LOCATION takes a latitude and a longitude in degrees")
        case "BYTES":
            let values = constants() ?? []
            if values.count == 1 {
                switch values[0] {
                case .string(let s):
                    if let data = Data(base64Encoded: s) { return .constant(.bytes(data), position) }
                case .bytes(let d):
                    return .constant(.bytes(d), position)
                default: break
                }
            }
            throw bad("BYTES takes a base64 string")
        default:
            throw RecordPredicateError(.unsupportedSyntax, "unknown function '\(name)'", at: position, text: name)
        }
    }
}

extension PredicateValue {
    /// INT64 or DOUBLE (not a timestamp).
    var isPlainNumber: Bool {
        switch self {
        case .int, .double: true
        default: false
        }
    }
}
