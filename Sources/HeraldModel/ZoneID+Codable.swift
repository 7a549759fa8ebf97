extension ZoneID {
    private enum WireKeys: String, CodingKey { case zoneName, ownerRecordName }

    /// Decodes `{zoneName, ownerRecordName}`; both are required and non-empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKeys.self)
        self.init(
            zoneName: try container.decodeNonEmpty(.zoneName),
            ownerRecordName: try container.decodeNonEmpty(.ownerRecordName))
    }

    /// Reads a zone ID from an already decoded JSON value (inside a field value).
    init(json: JSONValue, at path: [any CodingKey]) throws(ModelError) {
        let object = try JSONObjectReader(json, what: "zoneID", at: path)
        self.init(zoneName: try object.string("zoneName"), ownerRecordName: try object.string("ownerRecordName"))
    }

    /// The wire form `{zoneName, ownerRecordName}`.
    public var jsonValue: JSONValue {
        .object(["zoneName": .string(zoneName), "ownerRecordName": .string(ownerRecordName)])
    }
}
