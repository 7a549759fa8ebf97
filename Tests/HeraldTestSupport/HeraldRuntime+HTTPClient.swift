import HeraldAPI
import HeraldApp
import Hummingbird
import HummingbirdTesting

extension HeraldRuntime {
    /// Runs `body` with an HTTP client of this runtime's server, once it listens (waiting up
    /// to `timeout`: a loaded machine starts slowly); closes the client after.
    public func withHTTPClient<T: Sendable>(
        timeout: Duration = .seconds(60), _ body: @escaping @Sendable (RuntimeHTTPClient) async throws -> T
    ) async throws -> T {
        let port = try await Wait.value(timeout: timeout, every: .milliseconds(20)) { httpPort } until: { $0 != nil }
        guard let port else { throw RuntimeHTTPClient.NotListening(timeout: timeout) }
        return try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))) { client in
            try await body(RuntimeHTTPClient(client: client))
        }
    }
}

/// An HTTP/1.1 client of a runtime's live server (HummingbirdTesting's `TestClient`, as its
/// `.live` framework uses it), one keep-alive connection.
public struct RuntimeHTTPClient: Sendable {
    /// The runtime's HTTP server did not listen within `timeout`.
    public struct NotListening: Error {
        public var timeout: Duration
    }

    /// A response: its status, headers and whole body.
    public struct Response: Sendable {
        public var status: HTTPResponse.Status
        public var headers: HTTPFields
        public var body: ByteBuffer
    }

    let client: TestClient

    /// The headers of a JSON request by `user` in `container`, with a bearer token signed
    /// with test runtimes' secret (`PipelineFixture.jwtSecret`), as an app's backend issues it.
    public static func headers(user: String, container: String) async throws -> HTTPFields {
        let token = try await APIAuthenticator(secret: PipelineFixture.jwtSecret).issueToken(user: user, container: container)
        return [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    /// Sends a request and reads its response.
    public func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> Response {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1", headers: headers, body: body))
        return Response(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
    }
}
