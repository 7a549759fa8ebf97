import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import HeraldAPI

@Suite("Routing, body limits and error bodies")
struct RoutingTests {
    typealias H = APITestHarness

    @Test("unknown paths under /v1 are NOT_FOUND as JSON", arguments: [
        "/v1/nothing", "/v1", "/v1/containers", "/v1/containers/\(H.container)", "/v1/containers/\(H.container)/private",
        "/v1/containers/\(H.container)/notifications", "/v1/containers/\(H.container)/notifications/nope",
        "/v1/containers/\(H.container)/private/subscriptions/a/b", "/v1/containers/\(H.container)/badge/extra",
    ])
    func unknownPaths(path: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for method in [HTTPRequest.Method.get, .post, .put, .delete] {
                let response = try await client.execute(uri: path, method: method, headers: headers)
                #expect(try response.error(.notFound).serverErrorCode == "NOT_FOUND", "\(method) \(path)")
            }
        }
    }

    @Test("a known path with another method is METHOD_NOT_ALLOWED with Allow", arguments: [
        ("badge", HTTPRequest.Method.delete, "GET, POST"), ("notifications/changes", .get, "POST"),
        ("notifications/stream", .post, "GET"), ("private/subscriptions", .put, "GET"),
        ("private/subscriptions/s1", .post, "DELETE, GET, PUT"),
    ])
    func wrongMethod(suffix: String, method: HTTPRequest.Method, allow: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path(suffix), method: method, headers: headers)
            #expect(try response.error(.methodNotAllowed).serverErrorCode == "METHOD_NOT_ALLOWED")
            #expect(response.headers[.allow] == allow)
        }
    }

    @Test("a body over the limit is REQUEST_TOO_LARGE on every route that reads one", arguments: [
        ("notifications/changes", HTTPRequest.Method.post), ("notifications/read", .post), ("badge", .post),
        ("private/subscriptions/s1", .put),
    ])
    func oversizedBody(suffix: String, method: HTTPRequest.Method) async throws {
        let harness = try await H(limits: APILimits(maximumBodyBytes: 64))
        let headers = try await harness.authorization()
        let body = ByteBuffer(string: #"{"notificationIDs": ["\#(String(repeating: "x", count: 100))"]}"#)
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path(suffix), method: method, headers: headers, body: body)
            let error = try response.error(.contentTooLarge)
            #expect(error.serverErrorCode == "REQUEST_TOO_LARGE")
            #expect(error.reason == "the request body is larger than 64 bytes")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("the default limit is 1 MiB: a body just under it is read, one just over refused")
    func defaultLimit() async throws {
        let harness = try await H()
        #expect(APILimits().maximumBodyBytes == 1_048_576)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let fits = try await client.execute(uri: H.path("notifications/read"), method: .post, headers: headers, body: Self.padding(1_048_576))
            #expect(fits.status == .accepted)
            let over = try await client.execute(uri: H.path("notifications/read"), method: .post, headers: headers, body: Self.padding(1_048_577))
            #expect(try over.error(.contentTooLarge).serverErrorCode == "REQUEST_TOO_LARGE")
        }
    }

    /// A read body of exactly `total` bytes.
    static func padding(_ total: Int) -> ByteBuffer {
        let prefix = #"{"notificationIDs": ["1b4e28ba-2fa1-11d2-883f-0016d3cca427"], "padding": ""#
        return ByteBuffer(string: prefix + String(repeating: " ", count: total - prefix.utf8.count - 2) + #""}"#)
    }

    @Test("a streamed body without Content-Length is cut off at the limit, not buffered")
    func streamedBodyStopsAtLimit() async throws {
        let harness = try await H(limits: APILimits(maximumBodyBytes: 1000))
        let produced = ProducedCount()
        // An endless body: 100-byte chunks forever.
        let chunks = AsyncStream<ByteBuffer>(unfolding: {
            produced.increment()
            return ByteBuffer(repeating: UInt8(ascii: " "), count: 100)
        })
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/", headerFields: [:]),
            body: RequestBody(asyncSequence: chunks))
        do {
            _ = try await harness.api.bodies.readBody(request)
            Issue.record("an endless body was read")
        } catch {
            #expect(error.code == .requestTooLarge)
        }
        #expect(produced.value <= 11)
    }

    @Test("a declared Content-Length over the limit is refused before reading")
    func declaredLengthRefused() async throws {
        let harness = try await H(limits: APILimits(maximumBodyBytes: 10))
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/", headerFields: [.contentLength: "11"]),
            body: RequestBody(asyncSequence: AsyncStream<ByteBuffer>(unfolding: {
                Issue.record("the body was read")
                return nil
            })))
        await #expect(throws: APIError(.requestTooLarge, "the request body is larger than 10 bytes")) {
            _ = try await harness.api.bodies.readBody(request)
        }
    }

    @Test("error bodies carry the request id as uuid, distinct per request")
    func requestIDs() async throws {
        let harness = try await H()
        try await harness.application().test(.router) { client in
            let first = try await client.execute(uri: H.path("badge"), method: .get).error(.unauthorized)
            let second = try await client.execute(uri: H.path("badge"), method: .get).error(.unauthorized)
            #expect(first.uuid != second.uuid)
        }
    }

    @Test("every error code has its documented status")
    func statuses() {
        let expected: [(APIError.Code, Int)] = [
            (.authenticationRequired, 401), (.authenticationFailed, 401), (.accessDenied, 403), (.badRequest, 400),
            (.notFound, 404), (.methodNotAllowed, 405), (.duplicateSubscription, 409), (.changeTokenExpired, 410),
            (.requestTooLarge, 413), (.invalidSubscription, 400), (.invalidPredicate, 400), (.internalError, 500),
            (.serviceUnavailable, 503),
        ]
        for (code, status) in expected {
            #expect(code.status == status, "\(code)")
            #expect(APIError.Code(rawValue: code.rawValue) == code)
        }
    }
}

/// Counts chunks an endless body produced.
final class ProducedCount: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
