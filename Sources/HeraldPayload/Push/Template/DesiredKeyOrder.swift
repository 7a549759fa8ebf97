import HeraldModel

/// A subscription's desired keys as a ``PayloadTemplate`` writes them (`af`): each name
/// escaped once, and the order of the sorted layout computed once, instead of per
/// notification.
struct DesiredKeyOrder: Sendable {
    /// The desired keys, each once, in the subscription's order (as ``PayloadValues`` keeps them).
    private let names: [String]
    /// Each name as a JSON member name (`"name":`), in the order of `names`.
    private let encodedNames: [[UInt8]]
    /// The indices of `names` in UTF-8 byte order of the names (the sorted layout's order).
    private let sortedIndices: [Int]

    /// The order of `desiredKeys` (duplicates dropped, the first kept).
    init(_ desiredKeys: [String]) {
        var names: [String] = []
        for name in desiredKeys where !names.contains(name) { names.append(name) }
        self.names = names
        encodedNames = names.map { name in
            var writer = JSONWriter(capacity: name.utf8.count + 8)
            writer.key(name)
            return writer.bytes
        }
        sortedIndices = names.indices.sorted { JSONWriter.precedes(names[$0], names[$1]) }
    }

    /// Writes `members` (``PayloadValues/desiredKeys``: some of the names, in their order) as
    /// the `af` object, in the subscription's order or sorted; `false` when there are none.
    /// When some desired keys had no value, the names are escaped and sorted here (as
    /// ``PushPayload`` does).
    func write(_ members: [(key: String, value: JSONValue)]?, sorted: Bool, into writer: inout JSONWriter) -> Bool {
        guard let members, !members.isEmpty else { return false }
        writer.beginObject()
        if members.count == names.count, members.indices.allSatisfy({ members[$0].key == names[$0] }) {
            if sorted {
                for index in sortedIndices {
                    writer.key(encoded: encodedNames[index])
                    writer.valueOrNull(members[index].value)
                }
            } else {
                for index in members.indices {
                    writer.key(encoded: encodedNames[index])
                    writer.valueOrNull(members[index].value)
                }
            }
        } else {
            let order = sorted
                ? members.indices.sorted { JSONWriter.precedes(members[$0].key, members[$1].key) }
                : Array(members.indices)
            for index in order {
                writer.key(members[index].key)
                writer.valueOrNull(members[index].value)
            }
        }
        writer.endObject()
        return true
    }
}
