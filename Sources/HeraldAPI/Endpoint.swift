import Hummingbird

/// Every route `HeraldAPI` serves: the single list both the router and the OpenAPI check
/// are built from.
enum Endpoint: String, CaseIterable, Sendable {
    case fetchChanges
    case markRead
    case streamNotifications
    case getBadge
    case setBadge
    case listSubscriptions
    case getSubscription
    case saveSubscription
    case deleteSubscription
    case saveSchedule
    case listSchedules
    case getSchedule
    case deleteSchedule
    case reportLocation
    case openAPIDocument

    static let containerPrefix = "/v1/containers/{container}"

    var method: HTTPRequest.Method {
        switch self {
        case .fetchChanges, .markRead, .setBadge, .saveSchedule, .reportLocation: .post
        case .streamNotifications, .getBadge, .listSubscriptions, .getSubscription, .listSchedules, .getSchedule,
            .openAPIDocument:
            .get
        case .saveSubscription: .put
        case .deleteSubscription, .deleteSchedule: .delete
        }
    }

    /// The path template in OpenAPI spelling (`{name}` parameters).
    var path: String {
        switch self {
        case .fetchChanges: Self.containerPrefix + "/notifications/changes"
        case .markRead: Self.containerPrefix + "/notifications/read"
        case .streamNotifications: Self.containerPrefix + "/notifications/stream"
        case .getBadge, .setBadge: Self.containerPrefix + "/badge"
        case .listSubscriptions: Self.containerPrefix + "/{database}/subscriptions"
        case .getSubscription, .saveSubscription, .deleteSubscription:
            Self.containerPrefix + "/{database}/subscriptions/{subscriptionID}"
        case .saveSchedule, .listSchedules: Self.containerPrefix + "/schedules"
        case .getSchedule, .deleteSchedule: Self.containerPrefix + "/schedules/{scheduleID}"
        case .reportLocation: Self.containerPrefix + "/locations"
        case .openAPIDocument: "/openapi.yaml"
        }
    }

    /// The path in Hummingbird's spelling (`:name` parameters).
    var routerPath: RouterPath { RouterPath(Self.routerSpelling(path)) }

    static func routerSpelling(_ template: String) -> String {
        template.split(separator: "/", omittingEmptySubsequences: false).map { component in
            component.hasPrefix("{") && component.hasSuffix("}") ? ":" + component.dropFirst().dropLast() : component
        }.joined(separator: "/")
    }
}

/// One route of the API: an HTTP method and an OpenAPI path template.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    public var method: String
    /// `/v1/containers/{container}/badge`.
    public var path: String

    /// Creates a route.
    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    public var description: String { "\(method) \(path)" }
}
