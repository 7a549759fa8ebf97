/// Decoding helpers that validate as they read and report `ModelError`s at the exact path.
extension KeyedDecodingContainer {
    /// An error located at this container's path plus `key`.
    func error(_ code: ModelError.Code, _ reason: String, at key: Key) -> ModelError {
        ModelError(code, reason, at: codingPath + [key])
    }

    /// A required, non-empty string.
    func decodeNonEmpty(_ key: Key) throws -> String {
        let value = try decode(String.self, forKey: key)
        guard !value.isEmpty else { throw error(.invalidValue, "must not be empty", at: key) }
        return value
    }

    /// An optional string that, when present, is not empty.
    func decodeNonEmptyIfPresent(_ key: Key) throws -> String? {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard !value.isEmpty else { throw error(.invalidValue, "must not be empty", at: key) }
        return value
    }

    /// A required JSON integer within Int64.
    ///
    /// Read through `JSONValue` because Foundation reports a fractional number met where
    /// an integer is expected as corrupt data without a path.
    func decodeInteger(_ key: Key) throws -> Int64 {
        guard let value = try decodeIntegerIfPresent(key) else {
            throw error(.missingValue, "required key is missing", at: key)
        }
        return value
    }

    /// An optional JSON integer within Int64 (`null` counts as absent).
    func decodeIntegerIfPresent(_ key: Key) throws -> Int64? {
        guard contains(key) else { return nil }
        let json = try decode(JSONValue.self, forKey: key)
        switch json {
        case .null: return nil
        case .integer(let value): return value
        default: throw error(.typeMismatch, "expected an integer, got \(json.abbreviated())", at: key)
        }
    }

    /// A required integer that is zero or more (timestamps, sequence numbers).
    func decodeNonNegative(_ key: Key) throws -> Int64 {
        let value = try decodeInteger(key)
        guard value >= 0 else { throw error(.invalidValue, "must not be negative, got \(value)", at: key) }
        return value
    }

    /// An optional integer that, when present, is zero or more (`null` counts as absent).
    func decodeNonNegativeIfPresent(_ key: Key) throws -> Int64? {
        guard let value = try decodeIntegerIfPresent(key) else { return nil }
        guard value >= 0 else { throw error(.invalidValue, "must not be negative, got \(value)", at: key) }
        return value
    }

    /// A required latitude: degrees within [-90, 90].
    func decodeLatitude(_ key: Key) throws -> Double {
        try decodeDegrees(key, "latitude", bound: 90)
    }

    /// A required longitude: degrees within [-180, 180].
    func decodeLongitude(_ key: Key) throws -> Double {
        try decodeDegrees(key, "longitude", bound: 180)
    }

    /// A required number of degrees within [-bound, bound]; `name` leads the error.
    private func decodeDegrees(_ key: Key, _ name: String, bound: Int) throws -> Double {
        let value = try decode(Double.self, forKey: key)
        guard (-Double(bound)...Double(bound)).contains(value) else {
            throw error(.invalidValue, "\(name) must be within [-\(bound), \(bound)], got \(value)", at: key)
        }
        return value
    }

    /// An optional list of non-empty strings.
    func decodeNonEmptyStringsIfPresent(_ key: Key) throws -> [String]? {
        guard let values = try decodeIfPresent([String].self, forKey: key) else { return nil }
        if let index = values.firstIndex(where: \.isEmpty) {
            throw ModelError(.invalidValue, "must not be empty", at: codingPath + [key, WireKey(index: index)])
        }
        return values
    }

    /// A record's fields (`name → {value, type}`), with CloudKit field names.
    func decodeFields(_ key: Key) throws -> [String: FieldValue] {
        let fields = try decode([String: FieldValue].self, forKey: key)
        for name in fields.keys where !FieldValue.isValidFieldName(name) {
            throw ModelError(
                .invalidValue,
                "invalid field name \"\(name)\" (a letter, then letters, digits or _; at most 255)",
                at: codingPath + [key, WireKey(name)])
        }
        return fields
    }
}
