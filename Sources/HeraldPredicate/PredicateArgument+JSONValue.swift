import Foundation
import HeraldModel

extension PredicateArgument {
    /// Converts one `JSONValue` from a subscription's `query.arguments`, with the same rules
    /// as `init(json:index:)` (plain values, `{value, type}` objects, references, locations).
    /// - Throws: `RecordPredicateError` (`invalidArgument`) naming the argument.
    public init(_ value: JSONValue, index: Int = 0) throws(RecordPredicateError) {
        try self.init(json: Self.foundationObject(value), index: index)
    }

    /// Converts a subscription's whole `query.arguments` list.
    public static func list(_ values: [JSONValue]) throws(RecordPredicateError) -> [PredicateArgument] {
        var out: [PredicateArgument] = []
        for (i, value) in values.enumerated() { out.append(try PredicateArgument(value, index: i)) }
        return out
    }

    /// The `JSONSerialization`-style object for a JSON value (booleans as `c`-typed NSNumbers).
    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let b): NSNumber(value: b)
        case .integer(let i): NSNumber(value: i)
        case .double(let d): NSNumber(value: d)
        case .string(let s): s
        case .array(let items): items.map(foundationObject)
        case .object(let members): members.mapValues(foundationObject)
        }
    }
}
