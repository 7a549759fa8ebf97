import HeraldModel
import Hummingbird

extension HeraldAPI {
    /// `POST locations` `{latitude, longitude, timestamp?, horizontalAccuracy?}`: where the
    /// caller's device is, for region schedules. `recipient` and `container` come from the
    /// token and the path (when given they must agree); `timestamp` (milliseconds) defaults
    /// to now. Validated as a `DeviceLocation` — any failure, malformed or out of range, is
    /// `BAD_REQUEST` with the JSON path —, published to `locations` keyed by the recipient,
    /// and answered 202 with the location as published.
    func reportLocation(_ request: Request, caller: Caller) async throws -> Response {
        let body = try await decodeBody(JSONValue.self, from: request)
        guard case .object(var members) = body else {
            throw APIError(.badRequest, "the body must be a JSON object (a location), got \(body.kindDescription)")
        }
        try Self.complete(&members, with: [
            ("container", caller.container, "the path"), ("recipient", caller.user, "the bearer token"),
        ])
        if members["timestamp"] == nil || members["timestamp"] == .null {
            members["timestamp"] = .integer(nowMilliseconds)
        }
        let codec = WireCodec()
        let location: DeviceLocation
        do {
            location = try codec.decode(DeviceLocation.self, from: codec.encode(JSONValue.object(members)))
        } catch {
            throw APIError.badJSON(error)
        }
        try await publishing("location") { try await publisher.publish(location: location) }
        return try Self.jsonResponse(.accepted, location)
    }
}
