import Hummingbird

/// Lets a request through to the API's routes only with a valid bearer token for the
/// path's container, and puts the verified `Caller` on its `HeraldRequestContext`.
///
/// `Authorization: Bearer <JWT>` is checked by the `APIAuthenticator`; its `cid` must be the
/// `{container}` of the path (`ACCESS_DENIED` otherwise).
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = HeraldRequestContext

    let authenticator: APIAuthenticator

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let caller = try await authenticator.authenticate(authorization: request.headers[.authorization])
        guard caller.container == (try context.pathParameter("container")) else {
            throw APIError(.accessDenied, "the bearer token is for another container")
        }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }
}
