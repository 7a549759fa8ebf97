extension RecordChange: WireDecodable {
    /// Reads a record change as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        changeID = try c.nonEmpty("changeID")
        container = try c.nonEmpty("container")
        database = try c.wireEnum(DatabaseScope.self, "database")
        zoneID = try c.zoneID("zoneID")
        recordType = try c.nonEmpty("recordType")
        recordName = try c.nonEmpty("recordName")
        kind = try c.wireEnum(Kind.self, "kind")
        fields = try c.present("fields") != nil ? c.fields("fields") : [:]
        previousFields = try c.present("previousFields") != nil ? c.fields("previousFields") : nil
        modifiedBy = try c.nonEmptyIfPresent("modifiedBy")
        originDevice = try c.nonEmptyIfPresent("originDevice")
        timestamp = try c.nonNegative("timestamp")
        participants = try c.nonEmptyStringsIfPresent("participants")
        if participants != nil, database != .shared {
            throw ModelError(.invalidValue, "participants are only allowed in the shared database", path: "participants")
        }
        createdBy = try c.nonEmptyIfPresent("createdBy")
        creationDate = try c.nonNegativeIfPresent("creationDate")
    }
}

extension ZoneID {
    /// Reads `{zoneName, ownerRecordName}` as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        self.init(zoneName: try c.nonEmpty("zoneName"), ownerRecordName: try c.nonEmpty("ownerRecordName"))
    }
}

extension JSONMembers {
    /// A required zone ID.
    func zoneID(_ key: StaticString) throws(ModelError) -> ZoneID {
        guard let node = value(key) else { throw missing(key) }
        return try within(key) { () throws(ModelError) in try ZoneID(wire: document, at: node) }
    }

    /// An optional zone ID (absent or null is `nil`).
    func optionalZoneID(_ key: StaticString) throws(ModelError) -> ZoneID? {
        guard let node = present(key) else { return nil }
        return try within(key) { () throws(ModelError) in try ZoneID(wire: document, at: node) }
    }
}

extension RecordChange: WireEncodable {
    /// Writes the change as the synthesized `encode(to:)` does, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("changeID", changeID)
        writer.member("container", container)
        writer.member("createdBy", createdBy)
        writer.member("creationDate", creationDate)
        writer.member("database", database)
        try writer.nested("fields") { (writer) throws(ModelError) in try writer.fields(fields) }
        writer.member("kind", kind)
        writer.member("modifiedBy", modifiedBy)
        writer.member("originDevice", originDevice)
        writer.member("participants", participants)
        if let previousFields {
            try writer.nested("previousFields") { (writer) throws(ModelError) in try writer.fields(previousFields) }
        }
        writer.member("recordName", recordName)
        writer.member("recordType", recordType)
        writer.member("timestamp", timestamp)
        writer.key("zoneID")
        writer.zoneID(zoneID)
        writer.endObject()
    }
}
