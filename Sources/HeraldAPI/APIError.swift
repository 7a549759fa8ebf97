import Hummingbird

/// The one error type of `HeraldAPI`: a stable `serverErrorCode` in the CloudKit Web
/// Services style, a sentence for the client, and the HTTP status the code stands for.
///
/// Every failure of a request becomes the JSON body
/// `{"serverErrorCode": "...", "reason": "...", "uuid": "<request id>"}` with `status`
/// (its `HTTPResponseError` answer).
/// Reasons never carry stack traces or internal error dumps: what the server did wrong is
/// logged, the client reads a sentence.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable classification and its HTTP status. An open set.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The wire spelling (`serverErrorCode`).
        public var rawValue: String
        /// The HTTP status code the error is answered with.
        public var status: Int

        /// Creates a code; an unknown spelling answers 500.
        public init(rawValue: String) {
            self.init(rawValue, status: Self.known.first { $0.rawValue == rawValue }?.status ?? 500)
        }

        /// Creates a code answered with `status`.
        public init(_ rawValue: String, status: Int) {
            self.rawValue = rawValue
            self.status = status
        }

        /// 401: no bearer token in `Authorization`.
        public static let authenticationRequired = Code("AUTHENTICATION_REQUIRED", status: 401)
        /// 401: the bearer token is malformed, altered, expired or lacks a claim.
        public static let authenticationFailed = Code("AUTHENTICATION_FAILED", status: 401)
        /// 403: the token is for another container, or the resource belongs to another user.
        public static let accessDenied = Code("ACCESS_DENIED", status: 403)
        /// 400: the request is malformed (bad JSON — the reason names the JSON path —, a bad
        /// parameter, an invalid change token).
        public static let badRequest = Code("BAD_REQUEST", status: 400)
        /// 404: no such route, or no such subscription or schedule for this user.
        public static let notFound = Code("NOT_FOUND", status: 404)
        /// 405: the path exists but not with this method (`Allow` lists the methods).
        public static let methodNotAllowed = Code("METHOD_NOT_ALLOWED", status: 405)
        /// 409: the subscription duplicates another of the same user.
        public static let duplicateSubscription = Code("DUPLICATE_SUBSCRIPTION", status: 409)
        /// 410: the change token is older than the retained notifications; fetch again
        /// without one.
        public static let changeTokenExpired = Code("CHANGE_TOKEN_EXPIRED", status: 410)
        /// 414: the path (with its query) is longer than the server routes.
        public static let uriTooLong = Code("URI_TOO_LONG", status: 414)
        /// 413: the request body is larger than `APILimits.maximumBodyBytes`.
        public static let requestTooLarge = Code("REQUEST_TOO_LARGE", status: 413)
        /// 400: the subscription is well-formed JSON but not a valid subscription.
        public static let invalidSubscription = Code("INVALID_SUBSCRIPTION", status: 400)
        /// 400: the subscription's predicate does not compile.
        public static let invalidPredicate = Code("INVALID_PREDICATE", status: 400)
        /// 400: the schedule is well-formed JSON but not a valid schedule (a fire date and a
        /// region together, a repeat under a minute, an unknown time zone, `null` or `aps`
        /// in `userInfo`, a payload too large…).
        public static let invalidSchedule = Code("INVALID_SCHEDULE", status: 400)
        /// 400: the device registration is well-formed JSON but not a valid device (a token
        /// not of its platform's shape, an APNs device without `environment` or `topic`…).
        public static let invalidDevice = Code("INVALID_DEVICE", status: 400)
        /// 500: the server failed; details are logged, not returned.
        public static let internalError = Code("INTERNAL_ERROR", status: 500)
        /// 503: the request could not be handed to Kafka (or too many event streams are
        /// open); retry later.
        public static let serviceUnavailable = Code("SERVICE_UNAVAILABLE", status: 503)
        /// Not an HTTP answer: the API was configured wrongly (a short JWT secret).
        public static let invalidConfiguration = Code("INVALID_CONFIGURATION", status: 500)

        static let known: [Code] = [
            .authenticationRequired, .authenticationFailed, .accessDenied, .badRequest, .notFound,
            .methodNotAllowed, .duplicateSubscription, .changeTokenExpired, .requestTooLarge, .uriTooLong,
            .invalidSubscription, .invalidPredicate, .invalidSchedule, .invalidDevice, .internalError, .serviceUnavailable,
            .invalidConfiguration,
        ]

        public var description: String { rawValue }
    }

    /// The classification.
    public var code: Code
    /// What is wrong, for the client developer.
    public var reason: String
    /// Headers the answer carries besides the standard ones (`Allow` of a 405).
    public var headers: HTTPFields

    /// Creates an error.
    public init(_ code: Code, _ reason: String, headers: HTTPFields = [:]) {
        self.code = code
        self.reason = reason
        self.headers = headers
    }

    /// The HTTP status the error is answered with.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: code.status) }

    /// `CODE: reason`.
    public var description: String { "\(code): \(reason)" }
}
