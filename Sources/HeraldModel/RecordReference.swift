/// A REFERENCE field: points at another record by name.
public struct RecordReference: Sendable, Hashable {
    /// What happens to the referring record when the target is deleted.
    public enum Action: String, Sendable, Hashable, Codable {
        case none = "NONE"
        case deleteSelf = "DELETE_SELF"
    }

    public var recordName: String
    public var zoneID: ZoneID?
    public var action: Action

    public init(recordName: String, zoneID: ZoneID? = nil, action: Action = .none) {
        self.recordName = recordName
        self.zoneID = zoneID
        self.action = action
    }
}
