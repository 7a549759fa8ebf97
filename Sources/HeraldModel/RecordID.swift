/// A record's identity: its name within a zone (`{recordName, zoneID}` on the wire).
public struct RecordID: Sendable, Hashable, Codable {
    public var recordName: String
    public var zoneID: ZoneID

    /// Creates a record ID.
    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    private enum CodingKeys: String, CodingKey { case recordName, zoneID }

    /// Decodes `{recordName, zoneID}`; `recordName` must not be empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordName = try container.decodeNonEmpty(.recordName)
        zoneID = try container.decode(ZoneID.self, forKey: .zoneID)
    }
}
