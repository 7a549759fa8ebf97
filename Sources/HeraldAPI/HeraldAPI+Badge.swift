import HeraldModel
import Hummingbird

extension HeraldAPI {
    /// `GET badge`: `{"badge": n}`.
    func getBadge(caller: Caller) async throws -> Response {
        let badge = try await badges.badge(recipient: caller.user, container: caller.container)
        return try Self.jsonResponse(.ok, BadgeBody(badge: badge))
    }

    /// `POST badge` `{"badge": n}` (n ≥ 0): publishes a `BadgeReset`; 202 with the same
    /// body. The compose stage applies it in order with the user's notifications.
    func setBadge(_ request: Request, caller: Caller) async throws -> Response {
        let body = try await decodeBody(BadgeBody.self, from: request)
        guard body.badge >= 0 else { throw APIError(.badRequest, "badge: must not be negative, got \(body.badge)") }
        let reset = BadgeReset(
            recipient: caller.user, containerIdentifier: caller.container, badge: body.badge, requestedAt: nowMilliseconds)
        try await publishing("badge reset") { try await publisher.publish(badgeReset: reset) }
        return try Self.jsonResponse(.accepted, body)
    }
}
