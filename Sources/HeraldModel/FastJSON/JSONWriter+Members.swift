extension JSONWriter {
    /// A string member, omitted when `nil` (Codable's `encodeIfPresent`).
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// An integer member, omitted when `nil`.
    mutating func member(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        key(name)
        integer(value)
    }

    /// A boolean member, omitted when `nil`.
    mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    /// A list of strings, omitted when `nil`.
    mutating func member(_ name: StaticString, _ values: [String]?) {
        guard let values else { return }
        key(name)
        strings(values)
    }

    /// A closed-set name, omitted when `nil`.
    mutating func member<E: WireEnum>(_ name: StaticString, _ value: E?) {
        guard let value else { return }
        key(name)
        string(value.rawValue)
    }

    /// A nested value written by `body`, with `name` prefixed onto the path of its errors.
    mutating func nested(_ name: StaticString, _ body: (inout JSONWriter) throws(ModelError) -> Void) throws(ModelError) {
        key(name)
        do { try body(&self) } catch { throw error.prefixed("\(name)") }
    }

    /// `{zoneName, ownerRecordName}` in key order.
    mutating func zoneID(_ zoneID: ZoneID) {
        beginObject()
        member("ownerRecordName", zoneID.ownerRecordName)
        member("zoneName", zoneID.zoneName)
        endObject()
    }
}
