extension FieldValue {
    /// Reads a `{value, type?}` node exactly as `init(from:)` does. Common scalars (a declared
    /// STRING, INT64, DOUBLE or TIMESTAMP of the right JSON kind) are read without building a
    /// `JSONValue`; everything else goes through the same conversion as the Codable path.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let members = try JSONMembers(document, node)
        var declared: FieldType?
        if let name = try members.optionalString("type") {
            guard let type = FieldType(rawValue: name) else {
                let accepted = FieldType.allCases.map(\.rawValue).joined(separator: ", ")
                throw ModelError(.unknownValue, "unknown field type \"\(name)\" (expected one of: \(accepted))", path: "type")
            }
            declared = type
        }
        guard let valueNode = members.value("value") else { throw members.missing("value") }
        if let declared, let value = Self.scalar(document, valueNode, declared) {
            self = value
            return
        }
        let json = try members.within("value") { () throws(ModelError) in try document.jsonValue(valueNode) }
        let valuePath: [any CodingKey] = [WireKey("value")]
        let type: FieldType
        if let declared { type = declared } else { type = try FieldValue.inferType(of: json, at: valuePath) }
        self = try FieldValue(json: json, type: type, at: valuePath)
        // As in `init(from:)`: doubles read again so that `-0` keeps its sign.
        if type == .double {
            self = .double(try members.within("value") { () throws(ModelError) in try document.double(valueNode) })
        } else if type == .doubleList {
            var elements: [FieldValue] = []
            var index = valueNode + 1
            for position in 0..<Int(document.nodes[valueNode].count) {
                do { elements.append(.double(try document.double(index))) } catch {
                    throw error.prefixed(index: position).prefixed("value")
                }
                index = Int(document.nodes[index].next)
            }
            self = .list(elements, of: .double)
        }
    }

    /// A declared scalar whose node already has the right kind and a readable value, else `nil`.
    private static func scalar(_ document: JSONDocument, _ node: Int, _ type: FieldType) -> FieldValue? {
        switch (type, document.kind(node)) {
        case (.string, .string):
            return document.text(node).map(FieldValue.string)
        case (.int64, .number), (.timestamp, .number):
            guard case .integer(let value)? = document.numberValue(node) else { return nil }
            return type == .int64 ? .int64(value) : .timestamp(value)
        case (.double, .number):
            guard document.numberValue(node) != nil else { return nil }
            return document.doubleValue(node).map(FieldValue.double)
        default:
            return nil
        }
    }
}

extension JSONMembers {
    /// A record's fields (`decodeFields`): each a `{value, type?}`, names CloudKit-valid.
    func fields(_ key: StaticString) throws(ModelError) -> [String: FieldValue] {
        guard let node = value(key) else { throw missing(key) }
        return try within(key) { () throws(ModelError) in
            let members = try JSONMembers(document, node)
            var fields: [String: FieldValue] = [:]
            fields.reserveCapacity(Int(document.nodes[node].count))
            try members.forEach { (name, value) throws(ModelError) in
                do throws(ModelError) { fields[name] = try FieldValue(wire: document, at: value) } catch { throw error.prefixed(name) }
            }
            for name in fields.keys where !FieldValue.isValidFieldName(name) {
                throw ModelError.invalidFieldName(name)
            }
            return fields
        }
    }
}

extension FieldValue {
    /// Writes `{"type": T, "value": V}` as `encode(to:)` does.
    /// - Throws: `encodingFailed` for a list holding other values than its element type, or
    ///   a non-finite double.
    func write(to writer: inout JSONWriter) throws(ModelError) {
        if case .list(let elements, let element) = self, element.isList || elements.contains(where: { $0.type != element }) {
            throw ModelError(.encodingFailed, "cannot encode \(self) as JSON: a list must hold \(element.rawValue) values")
        }
        writer.beginObject()
        writer.key("type")
        writer.string(type.rawValue)
        try writer.nested("value") { (writer) throws(ModelError) in
            switch self {
            case .string(let value): writer.string(value)
            case .int64(let value), .timestamp(let value): writer.integer(value)
            case .double(let value): try writer.double(value)
            default: try writer.value(jsonValue)
            }
        }
        writer.endObject()
    }
}

extension JSONWriter {
    /// A record's fields, names in byte order.
    mutating func fields(_ fields: [String: FieldValue]) throws(ModelError) {
        try object(fields) { (writer, value) throws(ModelError) in try value.write(to: &writer) }
    }
}
