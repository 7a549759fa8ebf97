/// The Web Services form `{latitude, longitude, horizontalAccuracy?, verticalAccuracy?,
/// altitude?, speed?, course?, timestamp?}`; latitude within ±90, longitude within ±180.
extension Location: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), at: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Reads a location from an already decoded JSON value.
    /// - Throws: `ModelError` at `path` for missing coordinates or ones out of range.
    public init(json: JSONValue, at path: [any CodingKey]) throws(ModelError) {
        let object = try JSONObjectReader(json, what: "LOCATION", at: path)
        let latitude = try object.double("latitude")
        guard (-90.0...90.0).contains(latitude) else {
            throw ModelError(.invalidValue, "latitude must be within [-90, 90], got \(latitude)", at: object.at("latitude"))
        }
        let longitude = try object.double("longitude")
        guard (-180.0...180.0).contains(longitude) else {
            throw ModelError(
                .invalidValue, "longitude must be within [-180, 180], got \(longitude)", at: object.at("longitude"))
        }
        self.init(
            latitude: latitude, longitude: longitude,
            horizontalAccuracy: try object.optionalDouble("horizontalAccuracy"),
            verticalAccuracy: try object.optionalDouble("verticalAccuracy"),
            altitude: try object.optionalDouble("altitude"),
            speed: try object.optionalDouble("speed"),
            course: try object.optionalDouble("course"),
            timestamp: try object.optionalInt64("timestamp"))
    }

    /// The wire form; absent optional members are omitted.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["latitude": .double(latitude), "longitude": .double(longitude)]
        let optionals: [(String, Double?)] = [
            ("horizontalAccuracy", horizontalAccuracy), ("verticalAccuracy", verticalAccuracy),
            ("altitude", altitude), ("speed", speed), ("course", course),
        ]
        for (key, value) in optionals { if let value { members[key] = .double(value) } }
        if let timestamp { members["timestamp"] = .integer(timestamp) }
        return .object(members)
    }
}
