import HeraldModel
import Hummingbird

/// `…/badge`: the caller's badge, read and reset.
struct BadgeRoutes: Sendable {
    let badges: any BadgeReading
    let publisher: any HeraldPublisher
    let bodies: JSONBodies
    let clock: APIClock

    /// `GET` and `POST` at the collection's path.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .get(use: read)
            .post(use: set)
    }

    /// `GET badge`: `{"badge": n}`.
    @Sendable func read(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let badge = try await badges.badge(recipient: caller.user, container: caller.container)
        return try JSONBodies.response(.ok, BadgeBody(badge: badge))
    }

    /// `POST badge` `{"badge": n}` (n ≥ 0): publishes a `BadgeReset`; 202 with the same
    /// body. The compose stage applies it in order with the user's notifications.
    @Sendable func set(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await bodies.decode(BadgeBody.self, from: request)
        guard body.badge >= 0 else { throw APIError(.badRequest, "badge: must not be negative, got \(body.badge)") }
        let reset = BadgeReset(
            recipient: caller.user, containerIdentifier: caller.container, badge: body.badge,
            requestedAt: clock.milliseconds)
        try await PublishFailure.publishing("badge reset") { try await publisher.publish(badgeReset: reset) }
        return try JSONBodies.response(.accepted, body)
    }
}
