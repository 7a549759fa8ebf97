/// Reads members of a JSON object already decoded as `JSONValue`, validating types and
/// reporting `ModelError`s at `path + member`. Unknown members are ignored, so newer
/// producers can add keys without breaking older consumers.
struct JSONObjectReader {
    let members: [String: JSONValue]
    let path: [any CodingKey]

    /// Reads `json` as an object; `what` names the expected thing in the error ("REFERENCE").
    init(_ json: JSONValue, what: String, at path: [any CodingKey]) throws(ModelError) {
        guard case .object(let members) = json else {
            throw ModelError(.typeMismatch, "\(what) expects an object, got \(json.abbreviated())", at: path)
        }
        self.members = members
        self.path = path
    }

    func at(_ key: String) -> [any CodingKey] { path + [WireKey(key)] }

    func present(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func missing(_ key: String) -> ModelError {
        ModelError(.missingValue, "required key is missing", at: at(key))
    }

    func string(_ key: String) throws(ModelError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// A string that, when present, must not be empty.
    func optionalString(_ key: String) throws(ModelError) -> String? {
        guard let json = present(key) else { return nil }
        guard case .string(let value) = json else {
            throw ModelError(.typeMismatch, "expected a string, got \(json.abbreviated())", at: at(key))
        }
        guard !value.isEmpty else { throw ModelError(.invalidValue, "must not be empty", at: at(key)) }
        return value
    }

    func double(_ key: String) throws(ModelError) -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key) }
        return value
    }

    func optionalDouble(_ key: String) throws(ModelError) -> Double? {
        guard let json = present(key) else { return nil }
        guard let value = json.doubleValue else {
            throw ModelError(.typeMismatch, "expected a number, got \(json.abbreviated())", at: at(key))
        }
        return value
    }

    func int64(_ key: String) throws(ModelError) -> Int64 {
        guard let value = try optionalInt64(key) else { throw missing(key) }
        return value
    }

    func optionalInt64(_ key: String) throws(ModelError) -> Int64? {
        guard let json = present(key) else { return nil }
        guard case .integer(let value) = json else {
            throw ModelError(.typeMismatch, "expected an integer, got \(json.abbreviated())", at: at(key))
        }
        return value
    }
}
