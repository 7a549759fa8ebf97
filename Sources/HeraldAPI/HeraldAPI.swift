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
/// `ScheduleDirectory`, notifications come from the reader's `NotificationStore`. Every
/// `/v1` route needs `Authorization: Bearer <JWT>` whose `cid` is the path's container;
/// `sub` is who asks. Errors are JSON `{"serverErrorCode", "reason", "uuid"}`
/// (`APIError`). The routes and their status codes are documented in
/// `docs/openapi.yaml`, served at `/openapi.yaml`.
public struct HeraldAPI: Sendable {
    let store: NotificationStore
    let badges: any BadgeReading
    let publisher: any HeraldPublisher
    let directory: any SubscriptionDirectory
    let schedules: any ScheduleDirectory
    let notifier: StreamNotifier
    let authenticator: APIAuthenticator
    let limits: APILimits
    let now: @Sendable () -> Date

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
    ///   - now: the clock for `readAt`, `requestedAt`, a schedule's `createdAt` and the 64
    ///     limit, and a location's default `timestamp`.
    public init(
        store: NotificationStore, badges: any BadgeReading, publisher: any HeraldPublisher,
        directory: any SubscriptionDirectory, schedules: any ScheduleDirectory, notifier: StreamNotifier,
        authenticator: APIAuthenticator, limits: APILimits = APILimits(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.badges = badges
        self.publisher = publisher
        self.directory = directory
        self.schedules = schedules
        self.notifier = notifier
        self.authenticator = authenticator
        self.limits = limits
        self.now = now
    }

    /// Every route `addRoutes(to:)` serves (besides the JSON 404/405 fallbacks under `/v1`).
    public static var routes: [APIRoute] {
        Endpoint.allCases.map { APIRoute(method: $0.method.rawValue, path: $0.path) }
    }

    /// Adds the API's routes to `router`, plus JSON fallbacks: an unknown path under `/v1`
    /// answers 404 `NOT_FOUND`, a known path with another method 405 `METHOD_NOT_ALLOWED`.
    /// Adds no middleware: the router's other routes are untouched.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        for endpoint in Endpoint.allCases {
            router.on(endpoint.routerPath, method: endpoint.method) { request, context in
                await self.respond(to: endpoint, request: request, context: context)
            }
        }
        let fallbackMethods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options, .trace, Self.query]
        let methodsByPath = Dictionary(grouping: Endpoint.allCases, by: \.path)
        for (path, endpoints) in methodsByPath.sorted(by: { $0.key < $1.key }) {
            let allowed = endpoints.map(\.method)
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in fallbackMethods where !allowed.contains(method) {
                router.on(RouterPath(Endpoint.routerSpelling(path)), method: method) { _, context in
                    var response = Self.errorResponse(
                        APIError(.methodNotAllowed, "\(method.rawValue) is not allowed here; use \(allow)"),
                        requestID: Self.requestID(context))
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
        // `/v1/**` catches what no route starts like; the routes' own prefixes
        // (`/v1/containers/{container}`…) are trie nodes that would not fall through to it.
        let routePaths = Set(methodsByPath.keys)
        var prefixes: Set<String> = ["/v1/**"]
        for path in routePaths {
            let components = path.split(separator: "/")
            for count in 1..<components.count {
                let prefix = "/" + components.prefix(count).joined(separator: "/")
                if !routePaths.contains(prefix) { prefixes.insert(prefix) }
            }
        }
        for prefix in prefixes.sorted() {
            for method in fallbackMethods + [.head] {
                router.on(RouterPath(Endpoint.routerSpelling(prefix)), method: method) { request, context in
                    Self.errorResponse(
                        APIError(.notFound, "no route \(method.rawValue) \(request.uri.path)"), requestID: Self.requestID(context))
                }
            }
        }
    }

    /// The `QUERY` method (draft-ietf-httpbis-safe-method-w-body), answered 405 like the others.
    public static let query = HTTPRequest.Method("QUERY")!

    /// Log metadata key of the underlying error of a 5xx answer.
    static let errorMetadataKey = "herald.error"

    /// Answers one request: authenticates, dispatches, and turns every failure into the
    /// JSON error body (logging server-side failures with their details).
    func respond<Context: RequestContext>(to endpoint: Endpoint, request: Request, context: Context) async -> Response {
        let requestID = Self.requestID(context)
        do {
            if endpoint == .openAPIDocument { return Self.openAPIResponse() }
            let caller = try await authorize(request, context: context)
            return try await handle(endpoint, request: request, context: context, caller: caller, requestID: requestID)
        } catch {
            let failure = APIError.from(error)
            if failure.code.status >= 500 {
                context.logger.error(
                    "\(request.method) \(request.uri.path) failed: \(failure.code)",
                    metadata: [Self.errorMetadataKey: "\(String(reflecting: error))"])
            }
            return Self.errorResponse(failure, requestID: requestID)
        }
    }

    private func handle<Context: RequestContext>(
        _ endpoint: Endpoint, request: Request, context: Context, caller: Caller, requestID: String
    ) async throws -> Response {
        switch endpoint {
        case .fetchChanges: try await fetchChanges(request, caller: caller)
        case .markRead: try await markRead(request, caller: caller)
        case .streamNotifications: try await openStream(request, caller: caller, requestID: requestID)
        case .getBadge: try await getBadge(caller: caller)
        case .setBadge: try await setBadge(request, caller: caller)
        case .listSubscriptions: try listSubscriptions(context, caller: caller)
        case .getSubscription: try getSubscription(context, caller: caller)
        case .saveSubscription: try await saveSubscription(request, context: context, caller: caller)
        case .deleteSubscription: try await deleteSubscription(context, caller: caller)
        case .saveSchedule: try await saveSchedule(request, caller: caller)
        case .listSchedules: try listSchedules(caller: caller)
        case .getSchedule: try getSchedule(context, caller: caller)
        case .deleteSchedule: try await deleteSchedule(context, caller: caller)
        case .reportLocation: try await reportLocation(request, caller: caller)
        case .openAPIDocument: Self.openAPIResponse()
        }
    }

    /// `GET /openapi.yaml`, served without a token.
    static func openAPIResponse() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
    }

    /// The verified caller, who must hold a token for the path's container.
    private func authorize<Context: RequestContext>(_ request: Request, context: Context) async throws(APIError) -> Caller {
        let caller = try await authenticator.authenticate(authorization: request.headers[.authorization])
        let container = try Self.pathParameter("container", context)
        guard caller.container == container else {
            throw APIError(.accessDenied, "the bearer token is for another container")
        }
        return caller
    }

    // MARK: Helpers shared by the handlers

    /// Log metadata key of the request's ID (Hummingbird's, replaced by a UUID by
    /// `ErrorBodyMiddleware`).
    static let requestIDMetadataKey = "hb.request.id"

    /// The request's ID: the UUID `ErrorBodyMiddleware` gave it, or a fresh UUID (never
    /// Hummingbird's counter).
    static func requestID<Context: RequestContext>(_ context: Context) -> String {
        if let id = context.logger[metadataKey: requestIDMetadataKey]?.description, UUID(uuidString: id) != nil {
            return id
        }
        return UUID().uuidString.lowercased()
    }

    /// A path parameter, percent-decoded.
    /// - Throws: `APIError` (`BAD_REQUEST`) when it is missing or not valid percent-encoding.
    static func pathParameter<Context: RequestContext>(_ name: String, _ context: Context) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw APIError(.badRequest, "the path parameter \(name) is missing or malformed")
        }
        return value
    }

    /// The `{database}` path parameter.
    static func database<Context: RequestContext>(_ context: Context) throws(APIError) -> DatabaseScope {
        let name = try pathParameter("database", context)
        guard let database = DatabaseScope(rawValue: name) else {
            throw APIError(.badRequest, "database must be private, public or shared, got '\(name)'")
        }
        return database
    }

    /// Milliseconds since 1970 by `now`.
    var nowMilliseconds: Int64 { EpochMilliseconds.of(now()) }

    /// Runs a publish; any failure becomes a `PublishFailure` (answered
    /// `SERVICE_UNAVAILABLE`, logged with the underlying error).
    func publishing(_ what: String, _ publish: () async throws -> Void) async throws(PublishFailure) {
        do {
            try await publish()
        } catch {
            throw PublishFailure(what: what, underlying: error)
        }
    }
}

/// A publish that failed: the client gets `SERVICE_UNAVAILABLE` and retries; the log gets
/// the underlying error.
struct PublishFailure: Error {
    var what: String
    var underlying: any Error

    var apiError: APIError { APIError(.serviceUnavailable, "cannot publish the \(what) now; retry later") }
}
