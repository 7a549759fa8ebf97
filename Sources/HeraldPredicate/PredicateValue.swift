import Foundation
import HeraldModel

/// A constant operand of a comparison: a literal from the text or a substituted argument.
///
/// Dates are `timestamp` (milliseconds since 1970, like TIMESTAMP fields); references are
/// kept by record name only (comparisons use the name); locations keep only coordinates.
public enum PredicateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    /// A record reference, by record name.
    case reference(String)
    /// A point, in degrees.
    case location(latitude: Double, longitude: Double)
    case bytes(Data)
    /// `{a, b, …}` or a list argument.
    case list([PredicateValue])

    /// Converts a typed record value. An ASSETID becomes its file checksum string.
    public init(_ field: FieldValue) {
        switch field {
        case .string(let s): self = .string(s)
        case .int64(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .timestamp(let t): self = .timestamp(t)
        case .bytes(let d): self = .bytes(d)
        case .reference(let r): self = .reference(r.recordName)
        case .location(let l): self = .location(latitude: l.latitude, longitude: l.longitude)
        case .asset(let a): self = .string(a.fileChecksum)
        case .list(let items, _): self = .list(items.map(PredicateValue.init))
        }
    }

    /// The value as a double when it is a number (INT64, DOUBLE or a timestamp in ms).
    var numericValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .timestamp(let t): Double(t)
        default: nil
        }
    }
}
