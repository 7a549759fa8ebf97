import Foundation
import HeraldModel

/// One entry of the ordered argument list of a format string (`%@`, `%K`, `%n$@`).
///
/// A value argument becomes a constant in the syntax tree, never text: a string argument
/// such as `"x' OR TRUEPREDICATE"` stays one string literal. A `%K` argument must be a
/// string naming a key (`[A-Za-z_$][A-Za-z0-9_$]*`, dots for key paths).
///
/// Locations, timestamps and references are passed as typed values, e.g.
/// `.value(.location(Location(latitude: 48.85, longitude: 2.35)))` for
/// `distanceToLocation:fromLocation:(place, %@) < 5`.
public enum PredicateArgument: Sendable, Hashable {
    /// `nil` / `NULL`.
    case null
    case bool(Bool)
    /// A typed value (STRING, INT64, DOUBLE, TIMESTAMP, REFERENCE, LOCATION, lists…).
    case value(FieldValue)
    /// A list of arguments (e.g. a JSON array of mixed values) for `IN %@` or `BETWEEN %@`.
    case list([PredicateArgument])

    /// A STRING argument (or a key name for `%K`).
    public static func string(_ s: String) -> PredicateArgument { .value(.string(s)) }
    /// An INT64 argument.
    public static func int(_ i: Int64) -> PredicateArgument { .value(.int64(i)) }
    /// A DOUBLE argument.
    public static func double(_ d: Double) -> PredicateArgument { .value(.double(d)) }
    /// A TIMESTAMP argument in milliseconds since 1970.
    public static func timestamp(_ ms: Int64) -> PredicateArgument { .value(.timestamp(ms)) }
    /// A TIMESTAMP argument from a date (rounded down to the millisecond).
    public static func date(_ date: Date) -> PredicateArgument {
        .value(.timestamp(EpochMilliseconds.of(date)))
    }
    /// A REFERENCE argument by record name.
    public static func reference(_ recordName: String) -> PredicateArgument {
        .value(.reference(RecordReference(recordName: recordName)))
    }
    /// A LOCATION argument.
    public static func location(latitude: Double, longitude: Double) -> PredicateArgument {
        .value(.location(Location(latitude: latitude, longitude: longitude)))
    }

    /// The constant this argument stands for.
    var predicateValue: PredicateValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .value(let v): PredicateValue(v)
        case .list(let items): .list(items.map(\.predicateValue))
        }
    }

    /// The key name, when this argument can stand for `%K`.
    var keyName: String? {
        if case .value(.string(let s)) = self { return s }
        return nil
    }
}
