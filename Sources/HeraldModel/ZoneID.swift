/// A zone: its name and the user record name of its owner.
public struct ZoneID: Sendable, Hashable, Codable {
    public static let defaultZoneName = "_defaultZone"

    public var zoneName: String
    public var ownerRecordName: String

    public init(zoneName: String, ownerRecordName: String) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    public var isDefaultZone: Bool { zoneName == ZoneID.defaultZoneName }
}
