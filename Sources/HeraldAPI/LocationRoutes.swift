import HeraldModel
import Hummingbird

/// `…/locations`: where the caller's device is, for region schedules.
struct LocationRoutes: Sendable {
    let publisher: any HeraldPublisher
    let bodies: JSONBodies
    let clock: APIClock

    /// `POST` at the collection's path.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .post(use: report)
    }

    /// `POST locations` `{latitude, longitude, timestamp?, horizontalAccuracy?}`: where the
    /// caller's device is, for region schedules. `recipient` and `container` come from the
    /// token and the path (when given they must agree); `timestamp` (milliseconds) defaults
    /// to now. Validated as a `DeviceLocation` — any failure, malformed or out of range, is
    /// `BAD_REQUEST` with the JSON path —, published to `locations` keyed by the recipient,
    /// and answered 202 with the location as published.
    @Sendable func report(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await bodies.decode(JSONValue.self, from: request)
        guard case .object(var members) = body else {
            throw APIError(.badRequest, "the body must be a JSON object (a location), got \(body.kindDescription)")
        }
        try JSONBodies.complete(&members, with: [
            ("container", caller.container, "the path"), ("recipient", caller.user, "the bearer token"),
        ])
        if members["timestamp"] == nil || members["timestamp"] == .null {
            members["timestamp"] = .integer(clock.milliseconds)
        }
        let codec = WireCodec()
        let location: DeviceLocation
        do {
            location = try codec.decode(DeviceLocation.self, from: codec.encode(JSONValue.object(members)))
        } catch {
            throw APIError.badJSON(error)
        }
        try await PublishFailure.publishing("location") { try await publisher.publish(location: location) }
        return try JSONBodies.response(.accepted, location)
    }
}
