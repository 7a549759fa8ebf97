import Foundation

/// The Web Services form `{"value": V, "type": T}` (docs/cloudkit-behaviour.md §3).
///
/// `type` is optional on input and then inferred from the value (see
/// `FieldValue.inferType(of:at:)`); it is always written on output, so a value encoded
/// by Herald decodes to exactly the same `FieldValue` (negative zero included).
extension FieldValue: Codable {
    private enum WireKeys: String, CodingKey { case value, type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKeys.self)
        var declared: FieldType?
        if let name = try container.decodeIfPresent(String.self, forKey: .type) {
            guard let type = FieldType(rawValue: name) else {
                let accepted = FieldType.allCases.map(\.rawValue).joined(separator: ", ")
                throw container.error(
                    .unknownValue, "unknown field type \"\(name)\" (expected one of: \(accepted))", at: .type)
            }
            declared = type
        }
        let valuePath = container.codingPath + [WireKeys.value]
        let json = try container.decode(JSONValue.self, forKey: .value)
        let type = try declared ?? FieldValue.inferType(of: json, at: valuePath)
        self = try FieldValue(json: json, type: type, at: valuePath)
        // JSONValue reads `-0` as the integer 0; read doubles again to keep their exact value.
        if type == .double {
            self = .double(try container.decode(Double.self, forKey: .value))
        } else if type == .doubleList {
            self = .list(try container.decode([Double].self, forKey: .value).map(FieldValue.double), of: .double)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .list(let elements, let element) = self,
            element.isList || elements.contains(where: { $0.type != element })
        {
            throw EncodingError.invalidValue(
                self, .init(codingPath: encoder.codingPath, debugDescription: "a list must hold \(element.rawValue) values"))
        }
        var container = encoder.container(keyedBy: WireKeys.self)
        try container.encode(type.rawValue, forKey: .type)
        try container.encode(jsonValue, forKey: .value)
    }

    /// The wire `value` (without the type): a string, number, base64 string, object or array.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .int64(let value), .timestamp(let value): .integer(value)
        case .double(let value): .double(value)
        case .bytes(let value): .string(value.base64EncodedString())
        case .reference(let value): value.jsonValue
        case .location(let value): value.jsonValue
        case .asset(let value): value.jsonValue
        case .list(let elements, _): .array(elements.map(\.jsonValue))
        }
    }

    /// Reads the whole `{value, type?}` form from an already decoded JSON value — for
    /// example a typed predicate argument kept as `JSONValue`. Same rules as decoding,
    /// except that a negative zero without `DOUBLE` precision is read as `0`.
    /// - Throws: `ModelError` at `path` (or below it).
    public init(wireJSON json: JSONValue, at path: [any CodingKey] = []) throws(ModelError) {
        let object = try JSONObjectReader(json, what: "a field value", at: path)
        var declared: FieldType?
        if let name = object.present("type") {
            guard case .string(let text) = name, let type = FieldType(rawValue: text) else {
                let accepted = FieldType.allCases.map(\.rawValue).joined(separator: ", ")
                throw ModelError(
                    .unknownValue, "unknown field type \(name.abbreviated()) (expected one of: \(accepted))",
                    at: object.at("type"))
            }
            declared = type
        }
        guard let value = object.members["value"] else { throw object.missing("value") }
        let valuePath = object.at("value")
        // Not `??`: its autoclosure would erase the typed throw.
        let type: FieldType
        if let declared { type = declared } else { type = try FieldValue.inferType(of: value, at: valuePath) }
        self = try FieldValue(json: value, type: type, at: valuePath)
    }

    /// The whole wire form `{"value": V, "type": T}` as a `JSONValue`.
    public var wireJSON: JSONValue {
        .object(["value": jsonValue, "type": .string(type.rawValue)])
    }

    /// Converts a wire `value` of a known type.
    /// - Parameters:
    ///   - json: the decoded `value`.
    ///   - type: the declared or inferred type.
    ///   - path: where `value` sits, for errors.
    /// - Throws: `ModelError` naming `path` (or the list element) when the value does not fit the type.
    public init(json: JSONValue, type: FieldType, at path: [any CodingKey] = []) throws(ModelError) {
        if let element = type.elementType {
            guard case .array(let items) = json else {
                throw ModelError(.typeMismatch, "\(type.rawValue) expects an array, got \(json.abbreviated())", at: path)
            }
            var values: [FieldValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                let itemPath = path + [WireKey(index: index)]
                if case .array = item {
                    throw ModelError(.typeMismatch, "list elements must be scalar values, got an array", at: itemPath)
                }
                values.append(try FieldValue(json: item, type: element, at: itemPath))
            }
            self = .list(values, of: element)
            return
        }
        self = try FieldValue.scalar(json, type: type, at: path)
    }

    private static func scalar(_ json: JSONValue, type: FieldType, at path: [any CodingKey]) throws(ModelError) -> FieldValue {
        func mismatch(_ expected: String) -> ModelError {
            if case .double(let number) = json, number.rounded() == number {
                // A whole number beyond Int64 arrives as a double: show its digits, not `9.2e+18`.
                return ModelError(
                    .typeMismatch, "\(type.rawValue) expects \(expected), got \(WireCodec.text(of: number)) (outside the 64-bit range)",
                    at: path)
            }
            return ModelError(.typeMismatch, "\(type.rawValue) expects \(expected), got \(json.abbreviated())", at: path)
        }
        switch (type, json) {
        case (_, .null):
            throw ModelError(.missingValue, "\(type.rawValue) value must not be null", at: path)
        case (.string, .string(let value)):
            return .string(value)
        case (.int64, .integer(let value)):
            return .int64(value)
        case (.int64, _):
            throw mismatch("a 64-bit integer")
        case (.double, .integer(let value)):
            return .double(Double(value))
        case (.double, .double(let value)):
            return .double(value)
        case (.double, _):
            throw mismatch("a number")
        case (.timestamp, .integer(let value)):
            return .timestamp(value)
        case (.timestamp, _):
            throw mismatch("integer milliseconds since 1970")
        case (.bytes, .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw ModelError(.invalidValue, "BYTES expects base64, got invalid base64 \(json.abbreviated())", at: path)
            }
            return .bytes(data)
        case (.bytes, _), (.string, _):
            throw mismatch("a string")
        case (.reference, _):
            return .reference(try RecordReference(json: json, at: path))
        case (.location, _):
            return .location(try Location(json: json, at: path))
        case (.assetID, _):
            return .asset(try AssetReference(json: json, at: path))
        default:
            throw mismatch("a scalar value")
        }
    }

    /// Whether `name` is a valid CloudKit field name: a letter, then letters, digits or
    /// underscores, at most 255 characters.
    public static func isValidFieldName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 255, first.isASCIILetter else { return false }
        return bytes.allSatisfy { $0.isASCIILetter || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
}
