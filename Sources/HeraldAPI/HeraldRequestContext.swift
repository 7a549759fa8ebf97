import Foundation
import Hummingbird

/// The request context of the API's routes: Hummingbird's core context (path parameters,
/// logger) plus the request's ID and, once `AuthenticationMiddleware` has verified the
/// bearer token, the caller.
///
/// Made from the router's `BasicRequestContext` when a request reaches an API route, so the
/// rest of the router (operations routes, metrics) keeps its own context.
public struct HeraldRequestContext: ChildRequestContext, Sendable {
    /// Hummingbird's per-request storage: the logger, path parameters, endpoint path.
    public var coreContext: CoreRequestContextStorage
    /// The request's lowercase UUID: the `hb.request.id` of its log lines, the `uuid` of an
    /// error body, and (with `ErrorBodyMiddleware`) the `X-Request-ID` of the answer.
    public let requestID: String
    /// Who asks, set by `AuthenticationMiddleware`; `nil` on the routes that need no token.
    public var caller: Caller?

    /// The context of `context`'s request, keeping its path parameters and logger. The
    /// request's ID is the UUID `ErrorBodyMiddleware` gave it, or a fresh one, which then
    /// becomes the logger's `hb.request.id`.
    public init(context: BasicRequestContext) {
        coreContext = context.coreContext
        if let id = Self.givenRequestID(of: context) {
            // Already the logger's `hb.request.id`: no copy of its metadata.
            requestID = id
        } else {
            requestID = UUID().uuidString.lowercased()
            logger[metadataKey: Self.requestIDMetadataKey] = .string(requestID)
        }
    }

    /// Log metadata key of the request's ID (Hummingbird's, replaced by a UUID by
    /// `ErrorBodyMiddleware`).
    static let requestIDMetadataKey = "hb.request.id"

    /// The request's ID: the UUID in the logger's `hb.request.id`, or a fresh UUID (never
    /// Hummingbird's counter).
    static func requestID(of context: some RequestContext) -> String {
        givenRequestID(of: context) ?? UUID().uuidString.lowercased()
    }

    /// The UUID in the logger's `hb.request.id`, if it holds one.
    private static func givenRequestID(of context: some RequestContext) -> String? {
        guard let id = context.logger[metadataKey: requestIDMetadataKey]?.description, UUID(uuidString: id) != nil else {
            return nil
        }
        return id
    }

    /// The verified caller.
    /// - Throws: `APIError` (`AUTHENTICATION_REQUIRED`) on a route mounted without
    ///   `AuthenticationMiddleware`.
    func requireCaller() throws(APIError) -> Caller {
        guard let caller else {
            throw APIError(.authenticationRequired, "send a bearer token: Authorization: Bearer <JWT>")
        }
        return caller
    }

    /// A path parameter, percent-decoded.
    /// - Throws: `APIError` (`BAD_REQUEST`) when it is missing or not valid percent-encoding.
    func pathParameter(_ name: String) throws(APIError) -> String {
        guard let raw = parameters.get(name) else {
            throw APIError(.badRequest, "the path parameter \(name) is missing or malformed")
        }
        // Nothing to decode in the usual parameter: Foundation's decoding (per request) only with a `%`.
        if !raw.isEmpty, !raw.utf8.contains(UInt8(ascii: "%")) { return raw }
        guard let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw APIError(.badRequest, "the path parameter \(name) is missing or malformed")
        }
        return value
    }
}
