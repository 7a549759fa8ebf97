import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

/// The API on a router without `ErrorBodyMiddleware` (as the pipeline's end-to-end tests
/// mount it): its own errors are still the JSON body, with `X-Request-ID` equal to `uuid`.
@Suite("The API on a bare router")
struct BareRouterTests {
    typealias H = APITestHarness

    func application(_ harness: H) -> some ApplicationProtocol {
        let router = Router()
        harness.api.addRoutes(to: router)
        return Application(router: router)
    }

    @Test("errors of routes, 405 and 404 fallbacks carry the request ID in body and header", arguments: [
        (H.path("badge"), HTTPRequest.Method.get, HTTPResponse.Status.unauthorized, "AUTHENTICATION_REQUIRED"),
        (H.path("badge"), .delete, .methodNotAllowed, "METHOD_NOT_ALLOWED"),
        ("/openapi.yaml", .post, .methodNotAllowed, "METHOD_NOT_ALLOWED"),
        ("/v1/nothing", .get, .notFound, "NOT_FOUND"),
    ])
    func errorBodies(path: String, method: HTTPRequest.Method, status: HTTPResponse.Status, code: String) async throws {
        let harness = try await H()
        try await application(harness).test(.router) { client in
            let response = try await client.execute(uri: path, method: method)
            let error = try response.error(status)
            #expect(error.serverErrorCode == code)
            #expect(UUID(uuidString: error.uuid) != nil)
            #expect(response.headers[HeraldAPI.requestIDHeader] == error.uuid)
        }
    }

    @Test("a served route answers through the router with the caller of the token")
    func servedRoute() async throws {
        let harness = try await H()
        harness.badges.set(4, for: "_u9")
        let headers = try await harness.authorization("_u9")
        try await application(harness).test(.router) { client in
            let response = try await client.execute(uri: H.path("badge"), method: .get, headers: headers)
            #expect(response.status == .ok)
            #expect(try response.json([String: Int].self) == ["badge": 4])
        }
    }
}
