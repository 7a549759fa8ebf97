import Foundation
import Hummingbird
import HummingbirdCore

/// Gives every request a UUID and makes every error, on any route of the router, the JSON
/// error body.
///
/// - The request's ID becomes a fresh lowercase UUID: the `hb.request.id` of every log line
///   about the request, the `uuid` of an error body, and the `X-Request-ID` header of every
///   answer (errors or not), so a client can quote it in a bug report.
/// - What the router or another middleware throws (no route: 404 `NOT_FOUND`; Hummingbird's
///   own `HTTPError`s, their headers kept) becomes `{"serverErrorCode", "reason", "uuid"}`
///   with the same status;
///   anything else is 500 `INTERNAL_ERROR` with a generic reason (the error is logged).
/// - A path longer than `maximumPathBytes` is answered 414 `URI_TOO_LONG` before routing.
///
/// Add it to the router before any route (Hummingbird applies a middleware to the routes
/// added after it, and to the not-found answer).
public struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest path (with its query) routed; longer ones are 414 `URI_TOO_LONG`.
    public let maximumPathBytes: Int

    /// - Parameter maximumPathBytes: default 8 KiB.
    public init(maximumPathBytes: Int = 8192) {
        self.maximumPathBytes = maximumPathBytes
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let requestID = UUID().uuidString.lowercased()
        context.logger[metadataKey: HeraldRequestContext.requestIDMetadataKey] = .string(requestID)
        var response: Response
        if request.uri.description.utf8.count > maximumPathBytes {
            response = APIError(.uriTooLong, "the path is longer than \(maximumPathBytes) bytes").response(requestID: requestID)
        } else {
            do {
                response = try await next(request, context)
            } catch {
                var failure = Self.apiError(error, request: request, context: context)
                // An `HTTPError`'s own headers (`Allow` of a 405…) stay.
                for field in (error as? HTTPError)?.headers ?? [:] where failure.headers[field.name] == nil {
                    failure.headers.append(field)
                }
                response = failure.response(requestID: requestID)
            }
        }
        response.headers[HeraldAPI.requestIDHeader] = requestID
        return response
    }

    /// What the client is told about `error`.
    static func apiError(_ error: any Error, request: Request, context: Context) -> APIError {
        if let error = error as? APIError { return error }
        guard let error = error as? any HTTPResponseError else {
            context.logger.error(
                "\(request.method) \(request.uri.path) failed",
                metadata: [APIErrorMiddleware.errorMetadataKey: "\(String(reflecting: error))"])
            return APIError(.internalError, "the server failed to answer")
        }
        let status = error.status
        let message = (error as? HTTPError)?.body
        switch status.code {
        case 404:
            return APIError(.notFound, "no route \(request.method.rawValue) \(Self.shortened(request.uri.path))")
        case 405:
            return APIError(.methodNotAllowed, message ?? "\(request.method.rawValue) is not allowed here")
        case 413:
            return APIError(.requestTooLarge, message ?? "the request body is too large")
        case 400..<500:
            return APIError(APIError.Code("BAD_REQUEST", status: status.code), message ?? status.reasonPhrase)
        default:
            return APIError(APIError.Code(status.code == 503 ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR", status: status.code), status.reasonPhrase)
        }
    }

    /// A path for a reason: at most 200 characters.
    static func shortened(_ path: String) -> String {
        path.count <= 200 ? path : String(path.prefix(200)) + "…"
    }
}

extension HeraldAPI {
    /// The HTTP/1.1 server settings to serve the API with: a request head of up to 1 MiB
    /// (the body limit), so that an overlong path reaches `ErrorBodyMiddleware` and is
    /// answered 414 with the JSON error body; only a head over 1 MiB gets the HTTP
    /// parser's bare 400 (and the connection is closed).
    public static var httpConfiguration: HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 1 << 20, maxHeaderListSize: 1 << 20))
    }
}
