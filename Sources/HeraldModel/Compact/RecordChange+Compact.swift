import Foundation

extension RecordChange {
    /// Writes the change as a slim match carries it (`Match.slimmed()`): no previous fields
    /// or participants, and of the fields only those named in `fields`.
    func writeSlim(to writer: inout CompactWriter, fields names: [String]) throws(ModelError) {
        writer.string(changeID)
        writer.string(container)
        writer.string(database.rawValue)
        writer.zoneID(zoneID)
        writer.string(recordType)
        writer.string(recordName)
        writer.string(kind.rawValue)
        var count = 0
        if !fields.isEmpty {
            for name in names where fields[name] != nil { count += 1 }
        }
        writer.varint(count)
        if count > 0 {
            for name in names {
                guard let value = fields[name] else { continue }
                writer.string(name)
                try value.writeCompact(to: &writer)
            }
        }
        writer.optionalString(modifiedBy)
        writer.optionalString(originDevice)
        writer.int64(timestamp)
        writer.optionalString(createdBy)
        writer.optionalInt64(creationDate)
    }

    /// Reads what `writeSlim` wrote, with the checks of `init(wire:at:)`.
    init(slimCompact reader: inout CompactReader) throws(ModelError) {
        changeID = try reader.nonEmpty("changeID")
        container = try reader.nonEmpty("container")
        database = try reader.wireEnum(DatabaseScope.self, "database")
        zoneID = try reader.zoneID("zoneID")
        recordType = try reader.nonEmpty("recordType")
        recordName = try reader.nonEmpty("recordName")
        kind = try reader.wireEnum(Kind.self, "kind")
        let count = try reader.length()
        var fields: [String: FieldValue] = [:]
        fields.reserveCapacity(count)
        for _ in 0..<count {
            let name = try reader.string()
            guard FieldValue.isValidFieldName(name) else { throw ModelError.invalidFieldName(name).prefixed("fields") }
            do { fields[name] = try FieldValue(compact: &reader) } catch { throw error.prefixed(name).prefixed("fields") }
        }
        self.fields = fields
        previousFields = nil
        modifiedBy = try reader.nonEmptyIfPresent("modifiedBy")
        originDevice = try reader.nonEmptyIfPresent("originDevice")
        timestamp = try reader.int64()
        guard timestamp >= 0 else { throw ModelError.negative(timestamp, path: "timestamp") }
        participants = nil
        createdBy = try reader.nonEmptyIfPresent("createdBy")
        creationDate = try reader.optionalInt64()
        if let creationDate, creationDate < 0 {
            throw ModelError.negative(creationDate, path: "creationDate")
        }
    }
}

extension FieldValue {
    /// The first byte of a field value in the compact form: the common scalars are written
    /// as they are, every other type as its JSON (`{type, value}`), read back by the JSON
    /// reader with all its checks.
    private enum CompactTag: UInt8 {
        case json = 0, string, int64, double, timestamp
    }

    func writeCompact(to writer: inout CompactWriter) throws(ModelError) {
        switch self {
        case .string(let value):
            writer.byte(CompactTag.string.rawValue)
            writer.string(value)
        case .int64(let value):
            writer.byte(CompactTag.int64.rawValue)
            writer.int64(value)
        case .double(let value):
            writer.byte(CompactTag.double.rawValue)
            try writer.double(value)
        case .timestamp(let value):
            writer.byte(CompactTag.timestamp.rawValue)
            writer.int64(value)
        default:
            var json = JSONWriter(capacity: 128)
            try write(to: &json)
            writer.byte(CompactTag.json.rawValue)
            writer.blob(json.data)
        }
    }

    init(compact reader: inout CompactReader) throws(ModelError) {
        let tag = try reader.byte()
        switch CompactTag(rawValue: tag) {
        case .string: self = .string(try reader.string())
        case .int64: self = .int64(try reader.int64())
        case .timestamp: self = .timestamp(try reader.int64())
        case .double:
            let value = try reader.double()
            guard value.isFinite else { throw ModelError(.invalidValue, "\(value) is not a finite number", path: "value") }
            self = .double(value)
        case .json: self = try FieldValue(wire: JSONDocument(try reader.blob()), at: JSONDocument.root)
        case nil: throw CompactReader.malformed("unknown field value tag \(tag)")
        }
    }
}
