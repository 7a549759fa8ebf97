import Hummingbird

/// Answers every failure of the API's routes with the JSON error body: the errors of the
/// layers below (store, matcher, publisher) become their `APIError`, anything else
/// `INTERNAL_ERROR`; a 5xx is logged with the underlying error, which the client never sees.
///
/// The answer is made here, in the route's context, so its `uuid` is the request ID of
/// the request's log lines even when the router has no `ErrorBodyMiddleware`.
struct APIErrorMiddleware: RouterMiddleware {
    typealias Context = HeraldRequestContext

    /// Log metadata key of the underlying error of a 5xx answer.
    static let errorMetadataKey = "herald.error"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let failure = APIError.from(error)
            if failure.code.status >= 500 {
                context.logger.error(
                    "\(request.method) \(request.uri.path) failed: \(failure.code)",
                    metadata: [Self.errorMetadataKey: "\(String(reflecting: error))"])
            }
            return failure.response(requestID: context.requestID)
        }
    }
}
