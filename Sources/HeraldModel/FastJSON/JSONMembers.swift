/// The members of one object of a `JSONDocument`, read the way the Codable initializers
/// read a keyed container, with the same error codes at the same (relative) paths.
///
/// Paths are relative to the object: a reader of a nested value prefixes the member's name
/// onto an error it catches (`ModelError.prefixed(_:)`), so nothing is built on success.
struct JSONMembers {
    let document: JSONDocument
    let node: Int

    /// Opens `node` as an object. Member names are checked as Foundation checks them when it
    /// opens a keyed container: one it cannot read makes the whole document malformed.
    /// - Throws: `missingValue` for null, `typeMismatch` for anything else but an object.
    init(_ document: JSONDocument, _ node: Int) throws(ModelError) {
        self.document = document
        self.node = node
        switch document.kind(node) {
        case .object: break
        case .null: throw ModelError(.missingValue, "expected an object, got null")
        default: throw ModelError(.typeMismatch, "expected an object but found \(document.foundDescription(node))")
        }
        var index = node + 1
        for _ in 0..<document.nodes[node].count {
            if !document.isReadableText(index) {
                throw ModelError(.malformedJSON, "not valid JSON (a member name is not a valid string)")
            }
            index = Int(document.nodes[index + 1].next)
        }
    }

    /// The value node of the first member named `key` (Foundation keeps the first of duplicates).
    func value(_ key: StaticString) -> Int? { document.member(key, of: node) }

    /// The value node of `key` unless it is absent or null.
    func present(_ key: StaticString) -> Int? {
        guard let value = value(key), document.kind(value) != .null else { return nil }
        return value
    }

    /// Each member in document order, first of duplicates only.
    func forEach(_ body: (String, Int) throws(ModelError) -> Void) throws(ModelError) {
        var seen = Set<String>()
        var index = node + 1
        for _ in 0..<document.nodes[node].count {
            let name = document.text(index) ?? ""
            if seen.insert(name).inserted { try body(name, index + 1) }
            index = Int(document.nodes[index + 1].next)
        }
    }

    /// Runs `body` on the member `key`, prefixing `key` onto the path of an error it throws.
    func within<T>(_ key: StaticString, _ body: () throws(ModelError) -> T) throws(ModelError) -> T {
        do { return try body() } catch { throw error.prefixed("\(key)") }
    }

    func missing(_ key: StaticString) -> ModelError {
        ModelError(.missingValue, "required key is missing", path: "\(key)")
    }

    // MARK: Strings

    /// A required string (`decode(String.self, forKey:)`).
    func string(_ key: StaticString) throws(ModelError) -> String {
        guard let value = value(key) else { throw missing(key) }
        return try within(key) { () throws(ModelError) in try document.string(value) }
    }

    /// An optional string (`decodeIfPresent(String.self, forKey:)`).
    func optionalString(_ key: StaticString) throws(ModelError) -> String? {
        guard let value = present(key) else { return nil }
        return try within(key) { () throws(ModelError) in try document.string(value) }
    }

    /// A required, non-empty string (`decodeNonEmpty`).
    func nonEmpty(_ key: StaticString) throws(ModelError) -> String {
        let value = try string(key)
        guard !value.isEmpty else { throw ModelError(.invalidValue, "must not be empty", path: "\(key)") }
        return value
    }

    /// An optional string that, when present, is not empty (`decodeNonEmptyIfPresent`).
    func nonEmptyIfPresent(_ key: StaticString) throws(ModelError) -> String? {
        guard let value = try optionalString(key) else { return nil }
        guard !value.isEmpty else { throw ModelError(.invalidValue, "must not be empty", path: "\(key)") }
        return value
    }

    /// An optional list of strings (`decodeIfPresent([String].self, forKey:)`).
    func optionalStrings(_ key: StaticString) throws(ModelError) -> [String]? {
        guard let value = present(key) else { return nil }
        return try within(key) { () throws(ModelError) in try document.strings(value) }
    }

    /// An optional list of non-empty strings (`decodeNonEmptyStringsIfPresent`).
    func nonEmptyStringsIfPresent(_ key: StaticString) throws(ModelError) -> [String]? {
        guard let values = try optionalStrings(key) else { return nil }
        if let index = values.firstIndex(where: \.isEmpty) {
            throw ModelError(.invalidValue, "must not be empty", path: "\(key)[\(index)]")
        }
        return values
    }

    /// A required closed-set name.
    func wireEnum<E: WireEnum>(_ type: E.Type, _ key: StaticString) throws(ModelError) -> E {
        let name = try string(key)
        return try within(key) { () throws(ModelError) in try E(wireName: name, at: []) }
    }

    /// An optional closed-set name.
    func optionalWireEnum<E: WireEnum>(_ type: E.Type, _ key: StaticString) throws(ModelError) -> E? {
        guard let name = try optionalString(key) else { return nil }
        return try within(key) { () throws(ModelError) in try E(wireName: name, at: []) }
    }

    // MARK: Numbers and flags

    /// An optional integer read through `JSONValue` (`decodeIntegerIfPresent`).
    func integerIfPresent(_ key: StaticString) throws(ModelError) -> Int64? {
        guard let value = value(key) else { return nil }
        if document.kind(value) == .number, case .integer(let number)? = document.numberValue(value) { return number }
        let json = try within(key) { () throws(ModelError) in try document.jsonValue(value) }
        switch json {
        case .null: return nil
        case .integer(let number): return number
        default: throw ModelError(.typeMismatch, "expected an integer, got \(json.abbreviated())", path: "\(key)")
        }
    }

    /// A required integer that is zero or more (`decodeNonNegative`).
    func nonNegative(_ key: StaticString) throws(ModelError) -> Int64 {
        guard let value = try integerIfPresent(key) else { throw missing(key) }
        guard value >= 0 else { throw ModelError.negative(value, path: "\(key)") }
        return value
    }

    /// An optional integer that, when present, is zero or more (`decodeNonNegativeIfPresent`).
    func nonNegativeIfPresent(_ key: StaticString) throws(ModelError) -> Int64? {
        guard let value = try integerIfPresent(key) else { return nil }
        guard value >= 0 else { throw ModelError.negative(value, path: "\(key)") }
        return value
    }

    /// An optional boolean (`decodeIfPresent(Bool.self, forKey:)`).
    func optionalBool(_ key: StaticString) throws(ModelError) -> Bool? {
        guard let value = present(key) else { return nil }
        switch document.kind(value) {
        case .true: return true
        case .false: return false
        default:
            throw ModelError(.typeMismatch, "expected a boolean but found \(document.foundDescription(value))", path: "\(key)")
        }
    }

    /// An optional double (`decodeIfPresent(Double.self, forKey:)`).
    func optionalDouble(_ key: StaticString) throws(ModelError) -> Double? {
        guard let value = present(key) else { return nil }
        return try within(key) { () throws(ModelError) in try document.double(value) }
    }
}

extension JSONDocument {
    /// A string node as `decode(String.self)` reads it.
    func string(_ node: Int) throws(ModelError) -> String {
        switch kind(node) {
        case .string:
            guard let text = text(node) else { throw ModelError(.malformedJSON, "not valid JSON (a string is not valid)") }
            return text
        case .null:
            throw ModelError(.missingValue, "expected a string, got null")
        default:
            throw ModelError(.typeMismatch, "expected a string but found \(foundDescription(node))")
        }
    }

    /// A number node as `decode(Double.self)` reads it.
    func double(_ node: Int) throws(ModelError) -> Double {
        switch kind(node) {
        case .number:
            guard let value = doubleValue(node) else { throw ModelError(.malformedJSON, "not valid JSON (a number is not valid)") }
            return value
        case .null:
            throw ModelError(.missingValue, "expected a number, got null")
        default:
            throw ModelError(.typeMismatch, "expected a number but found \(foundDescription(node))")
        }
    }

    /// An array of strings as `decode([String].self)` reads it.
    func strings(_ node: Int) throws(ModelError) -> [String] {
        guard kind(node) == .array else {
            throw ModelError(.typeMismatch, "expected an array but found \(foundDescription(node))")
        }
        var out: [String] = []
        out.reserveCapacity(Int(nodes[node].count))
        var index = node + 1
        for position in 0..<Int(nodes[node].count) {
            do { out.append(try string(index)) } catch { throw error.prefixed(index: position) }
            index = Int(nodes[index].next)
        }
        return out
    }

    /// Any value as `JSONValue`'s Codable initializer reads it. A value it cannot read is a
    /// `typeMismatch` at its path — at the enclosing array's path when it sits in one, because
    /// `JSONValue` tries an array with `try?` and then reports the object it expected there.
    func jsonValue(_ node: Int) throws(ModelError) -> JSONValue {
        switch kind(node) {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number:
            guard let value = numberValue(node) else {
                throw ModelError(.typeMismatch, "expected an object but found number")
            }
            return value
        case .string:
            guard let text = text(node) else { throw ModelError(.typeMismatch, "expected an object but found a string") }
            return .string(text)
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(nodes[node].count))
            var index = node + 1
            for _ in 0..<Int(nodes[node].count) {
                guard let element = try? jsonValue(index) else {
                    throw ModelError(.typeMismatch, "expected an object but found an array")
                }
                elements.append(element)
                index = Int(nodes[index].next)
            }
            return .array(elements)
        case .object:
            let members = try JSONMembers(self, node)
            var result: [String: JSONValue] = [:]
            result.reserveCapacity(Int(nodes[node].count))
            try members.forEach { (name, value) throws(ModelError) in
                do throws(ModelError) { result[name] = try jsonValue(value) } catch { throw error.prefixed(name) }
            }
            return .object(result)
        }
    }
}

extension ModelError {
    /// This error located under member `key` of the value it was found in.
    func prefixed(_ key: String) -> ModelError {
        var error = self
        if error.code == .malformedJSON { return error }
        // Foundation's dictionary keys carry an integer value when they spell one, and a
        // path renders those as an index (`previousFields[0]`).
        if let index = Int(key), "\(index)" == key { return prefixed(index: index) }
        // An empty member name renders as nothing between two dots (`fields.`), as in `render`.
        if key.isEmpty {
            error.path = "." + path
        } else {
            error.path = path.isEmpty ? key : path.hasPrefix("[") || path.hasPrefix(".") ? key + path : key + "." + path
        }
        return error
    }

    /// This error located under element `index` of the array it was found in.
    func prefixed(index: Int) -> ModelError {
        var error = self
        if error.code == .malformedJSON { return error }
        error.path = path.isEmpty ? "[\(index)]" : path.hasPrefix("[") ? "[\(index)]" + path : "[\(index)]." + path
        return error
    }
}
