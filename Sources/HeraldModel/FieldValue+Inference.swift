extension FieldValue {
    /// The type of a wire `value` that came without `"type"`.
    ///
    /// A string is `STRING`; an integral number `INT64` (also `2.0`: the JSON text is
    /// not visible through `Codable`), any other number `DOUBLE`; an object with
    /// `recordName` a `REFERENCE`, with `latitude` and `longitude` a `LOCATION`, with
    /// `fileChecksum` an `ASSETID`. Timestamps and bytes are never inferred (they look
    /// like integers and strings). An array is the list of its elements' type; a list
    /// mixing integers and fractional numbers is a `DOUBLE_LIST`; **an empty array
    /// without a type is a `STRING_LIST`** (it holds no value that could contradict it).
    /// - Throws: `ModelError` for `null`, booleans, unrecognised objects, nested or
    ///   mixed lists (naming the first offending element).
    public static func inferType(of json: JSONValue, at path: [any CodingKey]) throws(ModelError) -> FieldType {
        guard case .array(let items) = json else { return try inferScalarType(of: json, at: path) }
        var inferred: FieldType?
        var firstIndex = 0
        for (index, item) in items.enumerated() {
            let itemPath = path + [WireKey(index: index)]
            if case .array = item {
                throw ModelError(.typeMismatch, "list elements must be scalar values, got an array", at: itemPath)
            }
            let type = try inferScalarType(of: item, at: itemPath)
            switch (inferred, type) {
            case (nil, _):
                inferred = type
                firstIndex = index
            case (let known?, _) where known == type:
                break
            case (.int64?, .double), (.double?, .int64):
                inferred = .double
            case (let known?, _):
                throw ModelError(
                    .typeMismatch,
                    "a list must be homogeneous: element \(index) is \(type.rawValue), element \(firstIndex) is \(known.rawValue)",
                    at: itemPath)
            }
        }
        return (inferred ?? .string).listType ?? .stringList
    }

    private static func inferScalarType(of json: JSONValue, at path: [any CodingKey]) throws(ModelError) -> FieldType {
        switch json {
        case .string: return .string
        case .integer: return .int64
        case .double: return .double
        case .null:
            throw ModelError(.missingValue, "value must not be null", at: path)
        case .bool:
            throw ModelError(
                .typeMismatch, "booleans are not a CloudKit field type (use INT64 0 or 1), got \(json)", at: path)
        case .object(let members):
            if members["recordName"] != nil { return .reference }
            if members["latitude"] != nil, members["longitude"] != nil { return .location }
            if members["fileChecksum"] != nil { return .assetID }
            throw ModelError(
                .typeMismatch,
                "cannot infer the type of \(json.abbreviated()) (expected recordName, latitude+longitude or fileChecksum); give \"type\"",
                at: path)
        case .array:
            throw ModelError(.typeMismatch, "list elements must be scalar values, got an array", at: path)
        }
    }
}
