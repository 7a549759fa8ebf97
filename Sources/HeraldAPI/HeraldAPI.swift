import Foundation
import HeraldModel
import HeraldReader
import Hummingbird

/// Herald's client HTTP API (docs/ARCHITECTURE.md §7): fetching, streaming and marking notifications,
/// the badge, subscriptions, scheduled notifications and device locations, under
/// `/v1/containers/{container}`, plus `/openapi.yaml`.
///
/// Pure of Kafka: what clients ask to change goes to a `HeraldPublisher`, subscriptions are
/// read and checked through a `SubscriptionDirectory`, schedules read through a
/// `ScheduleDirectory`, notifications come from the reader's `NotificationStore`.
///
/// One route collection per resource (`NotificationRoutes`, `StreamRoutes`, `BadgeRoutes`,
/// `SubscriptionRoutes`, `ScheduleRoutes`, `LocationRoutes`, `DeviceRoutes`), on a `HeraldRequestContext`.
/// Every `/v1` route is behind `AuthenticationMiddleware`: `Authorization: Bearer <JWT>`
/// whose `cid` is the path's container; `sub` is who asks. Errors are `APIError`s, answered
/// as JSON `{"serverErrorCode", "reason", "uuid"}` (`APIErrorMiddleware`). The routes and
/// their status codes are documented in `docs/openapi.yaml`, served at `/openapi.yaml`.
public struct HeraldAPI: Sendable {
    let store: NotificationStore
    let badges: any BadgeReading
    let publisher: any HeraldPublisher
    let directory: any SubscriptionDirectory
    let schedules: any ScheduleDirectory
    let notifier: StreamNotifier
    let authenticator: APIAuthenticator
    let limits: APILimits
    let clock: APIClock
    /// The revisions of saved subscriptions.
    let revisions: SubscriptionRevisions
    /// Push devices; `nil`: the `devices` routes are not served.
    let devices: (any DeviceRegistry)?

    /// Creates the API.
    /// - Parameters:
    ///   - store: where notifications are fetched and streamed from (its `tokenSigner`
    ///     issues the event ids).
    ///   - badges: the current badge of a user.
    ///   - publisher: where subscriptions, schedules, their tombstones, reads, badge resets
    ///     and locations go.
    ///   - directory: the subscriptions the match stage knows, and their rules.
    ///   - schedules: the pending schedules.
    ///   - notifier: wakes event streams; the reader service feeds it.
    ///   - authenticator: checks bearer tokens.
    ///   - limits: body size, heartbeat, stream bounds.
    ///   - devices: where push devices are registered, listed and removed; `nil`: no
    ///     `devices` routes.
    ///   - now: the clock for `readAt`, `requestedAt`, a schedule's `createdAt` and the 64
    ///     limit, a location's default `timestamp`, and a saved subscription's `revision`.
    public init(
        store: NotificationStore, badges: any BadgeReading, publisher: any HeraldPublisher,
        directory: any SubscriptionDirectory, schedules: any ScheduleDirectory, notifier: StreamNotifier,
        authenticator: APIAuthenticator, limits: APILimits = APILimits(), devices: (any DeviceRegistry)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.devices = devices
        self.store = store
        self.badges = badges
        self.publisher = publisher
        self.directory = directory
        self.schedules = schedules
        self.notifier = notifier
        self.authenticator = authenticator
        self.limits = limits
        self.clock = APIClock(now: now)
        self.revisions = SubscriptionRevisions(clock: clock)
    }

    /// The answer header that carries the request ID (also the error body's `uuid`).
    public static let requestIDHeader = HTTPFields.Element.Name("X-Request-ID")!
    /// The header an event stream resumes from.
    static let lastEventID = HeaderName("Last-Event-ID")!
    /// The `QUERY` method (draft-ietf-httpbis-safe-method-w-body), answered 405 like the others.
    public static let query = HTTPRequest.Method("QUERY")!
    /// Where every resource lives.
    static let containerPath = "/v1/containers/{container}"

    /// The resources' route collections and the paths they are mounted at, under
    /// `containerPath`.
    var resources: [(path: RouterPath, routes: RouteCollection<HeraldRequestContext>)] {
        var resources: [(path: RouterPath, routes: RouteCollection<HeraldRequestContext>)] = [
            ("notifications", NotificationRoutes(store: store, publisher: publisher, bodies: bodies, clock: clock).collection),
            ("notifications", streams.collection),
            ("badge", BadgeRoutes(badges: badges, publisher: publisher, bodies: bodies, clock: clock).collection),
            ("{database}/subscriptions", SubscriptionRoutes(
                directory: directory, publisher: publisher, bodies: bodies, revisions: revisions).collection),
            ("schedules", ScheduleRoutes(schedules: schedules, publisher: publisher, bodies: bodies, clock: clock).collection),
            ("locations", LocationRoutes(publisher: publisher, bodies: bodies, clock: clock).collection),
        ]
        if let devices {
            resources.append(("devices", DeviceRoutes(registry: devices, bodies: bodies, clock: clock).collection))
        }
        return resources
    }

    /// How request bodies are read, within `limits`.
    var bodies: JSONBodies { JSONBodies(maximumBodyBytes: limits.maximumBodyBytes) }

    /// The event streams' routes.
    var streams: StreamRoutes { StreamRoutes(store: store, notifier: notifier, limits: limits) }

    /// Every route `addRoutes(to:)` serves (besides the JSON 404/405 fallbacks), read from
    /// a router the resources are mounted on.
    public var routes: [APIRoute] {
        let router = Router()
        mountResources(on: router)
        return router.routes.map { APIRoute(method: $0.method.rawValue, path: $0.path.description) }
    }

    /// Adds the API's routes to `router`, plus JSON fallbacks (`FallbackRoutes`): an unknown
    /// path under `/v1` answers 404 `NOT_FOUND`, a known path with another method 405
    /// `METHOD_NOT_ALLOWED`. Adds no middleware to the router itself: its other routes are
    /// untouched.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        let api = mountResources(on: router)
        FallbackRoutes(served: routes).add(to: api)
    }

    /// Mounts `GET /openapi.yaml` and the resources on `router`; returns the API's group
    /// (no path, `HeraldRequestContext`, `APIErrorMiddleware`).
    @discardableResult
    private func mountResources(on router: Router<BasicRequestContext>) -> RouterGroup<HeraldRequestContext> {
        let api = router.group(context: HeraldRequestContext.self).add(middleware: APIErrorMiddleware())
        api.get("/openapi.yaml", use: OpenAPIDocument.bundled.serve)
        let containers = api.group(RouterPath(Self.containerPath))
            .add(middleware: AuthenticationMiddleware(authenticator: authenticator))
        for resource in resources {
            containers.addRoutes(resource.routes, atPath: resource.path)
        }
        return api
    }
}

/// One route of the API: an HTTP method and an OpenAPI path template.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    public var method: String
    /// `/v1/containers/{container}/badge`.
    public var path: String
    // Only the API lists its routes: the memberwise initializer stays internal.

    public var description: String { "\(method) \(path)" }
}
