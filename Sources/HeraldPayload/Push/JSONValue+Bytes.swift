import HeraldModel

extension JSONValue {
    /// The value as compact JSON bytes, object keys sorted: what `WireCodec` writes. A
    /// non-finite double (which no payload value holds) is written as `null`.
    var jsonBytes: [UInt8] {
        var writer = JSONWriter(capacity: JSONWriter.size(of: self))
        writer.valueOrNull(self)
        return writer.bytes
    }
}

extension JSONWriter {
    /// Writes `value`, with `null` for a non-finite double (which JSON cannot spell): the
    /// payload's values never hold one (``FieldValue/desiredKeyValue(maxCharacters:)``
    /// leaves them out), so what was measured with ``JSONWriter/size(of:)`` is what is written.
    mutating func valueOrNull(_ value: JSONValue) {
        switch value {
        case .double(let number) where !number.isFinite:
            null()
        case .array(let elements):
            beginArray()
            for element in elements { valueOrNull(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members.sorted(by: { JSONWriter.precedes($0.key, $1.key) }) {
                key(name)
                valueOrNull(member)
            }
            endObject()
        default:
            // Only non-finite doubles throw, handled above.
            try? self.value(value)
        }
    }
}
