import Foundation
import HeraldModel

extension PredicateArgument {
    /// Converts one decoded JSON value (as produced by `JSONSerialization`) to an argument.
    ///
    /// - strings, numbers, booleans, `null` and arrays map directly (a number written
    ///   without fraction or exponent becomes INT64, any other DOUBLE; numbers compare
    ///   across the two anyway);
    /// - an object `{"value": V, "type": "TIMESTAMP"}` is a typed CloudKit field value
    ///   (docs/cloudkit-behaviour.md §3; `type` may be omitted for plain values);
    /// - an object with `recordName` is a REFERENCE; one with `latitude` and `longitude` a
    ///   LOCATION.
    ///
    /// - Throws: `RecordPredicateError` (`invalidArgument`, position 1:`index`+1) for anything else.
    public init(json: Any, index: Int = 0) throws(RecordPredicateError) {
        let position = SourcePosition(line: 1, column: index + 1)
        func bad(_ reason: String) -> RecordPredicateError {
            RecordPredicateError(.invalidArgument, "argument \(index + 1): \(reason)", at: position)
        }
        switch json {
        case is NSNull:
            self = .null
        case let s as String:
            self = .string(s)
        case let n as NSNumber:
            if Self.isBoolean(n) {
                self = .bool(n.boolValue)
            } else if !Self.isFloatingPoint(n) {
                self = .int(n.int64Value)
            } else {
                self = .double(n.doubleValue)
            }
        case let b as Bool:
            self = .bool(b)
        case let i as Int:
            self = .int(Int64(i))
        case let d as Double:
            self = .double(d)
        case let items as [Any]:
            var out: [PredicateArgument] = []
            for item in items { out.append(try PredicateArgument(json: item, index: index)) }
            self = .list(out)
        case let object as [String: Any]:
            if let value = object["value"] {
                guard let field = Self.fieldValue(value, type: object["type"] as? String) else {
                    throw bad("cannot read a \(object["type"] as? String ?? "typed") value")
                }
                self = .value(field)
            } else if let field = Self.fieldValue(object, type: nil) {
                self = .value(field)
            } else {
                throw bad("an object must be {value, type}, a reference or a location")
            }
        default:
            throw bad("unsupported JSON value")
        }
    }

    /// Converts a whole JSON argument array.
    public static func list(json: [Any]) throws(RecordPredicateError) -> [PredicateArgument] {
        var out: [PredicateArgument] = []
        for (i, item) in json.enumerated() { out.append(try PredicateArgument(json: item, index: i)) }
        return out
    }

    /// `JSONSerialization` gives booleans as NSNumbers of Objective-C type `c`.
    private static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    private static func isFloatingPoint(_ n: NSNumber) -> Bool {
        let type = String(cString: n.objCType)
        return type == "d" || type == "f"
    }

    /// An integer, or an integral floating-point number that converts exactly.
    private static func exactInteger(_ n: NSNumber) -> Int64? {
        guard isFloatingPoint(n) else { return n.int64Value }
        let d = n.doubleValue
        guard d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int64(d)
    }

    private static func number(_ any: Any) -> Double? {
        guard let n = any as? NSNumber, !isBoolean(n) else { return nil }
        return n.doubleValue
    }

    private static func integer(_ any: Any) -> Int64? {
        guard let n = any as? NSNumber, !isBoolean(n) else { return nil }
        return exactInteger(n)
    }

    /// Reads a CloudKit wire value of the given type (or inferred when `type` is nil).
    static func fieldValue(_ value: Any, type: String?) -> FieldValue? {
        if let type, let fieldType = FieldType(rawValue: type), let element = fieldType.elementType {
            guard let items = value as? [Any] else { return nil }
            var out: [FieldValue] = []
            for item in items {
                guard let v = fieldValue(item, type: element.rawValue) else { return nil }
                out.append(v)
            }
            return .list(out, of: element)
        }
        switch type {
        case "STRING": return (value as? String).map(FieldValue.string)
        case "INT64": return integer(value).map(FieldValue.int64)
        case "DOUBLE": return number(value).map(FieldValue.double)
        case "TIMESTAMP": return integer(value).map(FieldValue.timestamp)
        case "BYTES": return (value as? String).flatMap { Data(base64Encoded: $0) }.map(FieldValue.bytes)
        case "REFERENCE":
            guard let o = value as? [String: Any], let name = o["recordName"] as? String else { return nil }
            return .reference(RecordReference(recordName: name))
        case "LOCATION":
            guard let o = value as? [String: Any], let lat = o["latitude"].flatMap(number),
                  let lon = o["longitude"].flatMap(number) else { return nil }
            return .location(Location(latitude: lat, longitude: lon))
        case "ASSETID":
            guard let o = value as? [String: Any], let sum = o["fileChecksum"] as? String else { return nil }
            return .asset(AssetReference(fileChecksum: sum, size: o["size"].flatMap(integer) ?? 0))
        case nil:
            if let s = value as? String { return .string(s) }
            if let n = value as? NSNumber, !isBoolean(n) {
                return isFloatingPoint(n) ? .double(n.doubleValue) : .int64(n.int64Value)
            }
            if let o = value as? [String: Any] {
                if o["recordName"] != nil { return fieldValue(o, type: "REFERENCE") }
                if o["latitude"] != nil { return fieldValue(o, type: "LOCATION") }
            }
            return nil
        default:
            return nil
        }
    }
}
