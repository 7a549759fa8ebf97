/// The Web Services form `{recordName, zoneID?, action?}`; `action` defaults to `NONE`.
extension RecordReference: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), at: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Reads a reference from an already decoded JSON value.
    /// - Throws: `ModelError` at `path` (missing or empty `recordName`, unknown `action`…).
    public init(json: JSONValue, at path: [any CodingKey]) throws(ModelError) {
        let object = try JSONObjectReader(json, what: "REFERENCE", at: path)
        var action = Action.none
        if let name = try object.optionalString("action") {
            guard let known = Action(rawValue: name) else {
                throw ModelError(
                    .unknownValue, "unknown reference action \"\(name)\" (expected NONE or DELETE_SELF)",
                    at: object.at("action"))
            }
            action = known
        }
        self.init(
            recordName: try object.string("recordName"),
            zoneID: try object.present("zoneID").map { (json) throws(ModelError) in
                try ZoneID(json: json, at: object.at("zoneID"))
            },
            action: action)
    }

    /// The wire form; `zoneID` is omitted when `nil`, `action` always written.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["recordName": .string(recordName), "action": .string(action.rawValue)]
        if let zoneID { members["zoneID"] = zoneID.jsonValue }
        return .object(members)
    }
}
