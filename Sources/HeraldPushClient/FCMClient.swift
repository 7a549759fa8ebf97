import AsyncHTTPClient
import Foundation
import HeraldModel
import HeraldPush
import Logging
import NIOCore
import NIOHTTP1

/// Sends pushes through FCM HTTP v1 (`POST /v1/projects/<project>/messages:send`) with an
/// OAuth2 access token from the service account (`FCMAccessToken`), over a pool of HTTP/2
/// connections. iOS devices get `message.apns`, Android devices data/notification
/// (`FCMMessage`).
public final class FCMClient: PushTransport {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The FCM API base URL. Default `https://fcm.googleapis.com`.
        public var baseURL = "https://fcm.googleapis.com"
        /// The OAuth2 token endpoint; `nil` uses the service account's `token_uri`.
        public var tokenURL: String?
        /// A PEM file of extra CAs to trust (tests, corporate proxies). Default none.
        public var caFile: String?
        /// HTTP/2 connections. Default 2.
        public var connections = 2
        /// How long one send (or token exchange) may take. Default 10 s.
        public var timeout: Duration = .seconds(10)
        /// How long before its expiry an access token is replaced. Default 5 minutes.
        public var tokenMargin: Duration = .seconds(300)

        /// The defaults above.
        public init() {}
    }

    private let configuration: Configuration
    private let credentials: FCMCredentials
    private let connections: ProviderConnections
    private let accessToken: FCMAccessToken
    private let logger: Logger
    private let now: @Sendable () -> Int64

    /// Creates a client; connects on first use.
    /// - Throws: `PushClientError` for a bad CA file.
    public init(
        credentials: FCMCredentials, configuration: Configuration = .init(),
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(PushClientError) {
        self.configuration = configuration
        self.credentials = credentials
        self.logger = logger
        self.now = now
        connections = try ProviderConnections(
            count: configuration.connections, caFile: configuration.caFile, connectTimeout: configuration.timeout,
            eventLoopGroup: eventLoopGroup)
        accessToken = FCMAccessToken(
            credentials: credentials, tokenURL: configuration.tokenURL ?? credentials.tokenURI,
            margin: configuration.tokenMargin, now: now)
    }

    /// Sends `request`; every failure is a `ProviderResponse`. A token endpoint that
    /// refuses is reported as 401 `UNAUTHENTICATED` (the app's credentials are wrong); one
    /// that cannot be reached as unreachable.
    public func send(_ request: PushRequest) async -> ProviderResponse {
        let body: [UInt8]
        do {
            body = try FCMMessage.body(for: request, nowSeconds: now())
        } catch {
            return .rejected(status: error.status, reason: error.reason, timestamp: nil, retryAfterSeconds: nil)
        }
        let client = connections.client
        let bearer: String
        do {
            bearer = try await accessToken.token(using: client, timeout: configuration.timeout)
        } catch {
            logger.error("cannot get an FCM access token", metadata: ["error": "\(error)"])
            if let error = error as? PushClientError, error.reason.contains("unreachable") {
                return .unreachable(error.description)
            }
            return .rejected(status: 401, reason: "UNAUTHENTICATED", timestamp: nil, retryAfterSeconds: nil)
        }
        var http = HTTPClientRequest(url: configuration.baseURL + FCMMessage.path(project: credentials.projectID))
        http.method = .POST
        http.headers.add(name: "authorization", value: "Bearer " + bearer)
        http.headers.add(name: "content-type", value: "application/json")
        http.body = .bytes(body)
        switch await ProviderExchange.perform(http, on: client, timeout: configuration.timeout) {
        case .failed(let description):
            return .unreachable(description)
        case .answered(let status, let headers, let body):
            return await interpret(status: status, headers: headers, body: body, bearer: bearer)
        }
    }

    /// The FCM error body `{"error": {"status", "message", "details": [...]}}`.
    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            struct Violation: Decodable { var field: String? }
            var errorCode: String?
            var fieldViolations: [Violation]?
        }
        struct Inner: Decodable {
            var status: String?
            var message: String?
            var details: [Detail]?
        }
        var error: Inner?
    }

    private func interpret(status: Int, headers: HTTPHeaders, body: [UInt8], bearer: String) async -> ProviderResponse {
        if status == 200 {
            struct Sent: Decodable { var name: String? }
            return .accepted(providerID: (try? JSONDecoder().decode(Sent.self, from: Data(body)))?.name)
        }
        if status == 401 { await accessToken.invalidate(bearer) }
        let inner = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body)))?.error
        let details = inner?.details ?? []
        let reason = FCMError.reason(
            status: inner?.status ?? "HTTP \(status)", errorCode: details.compactMap(\.errorCode).first,
            fields: details.flatMap { $0.fieldViolations ?? [] }.compactMap(\.field), message: inner?.message)
        // FCM gives no timestamp of its own: the response's time orders a removal against a
        // later re-registration.
        return .rejected(
            status: status, reason: reason, timestamp: now() * 1000, retryAfterSeconds: ProviderExchange.retryAfter(headers))
    }

    /// Closes the connections; call once when done.
    public func shutdown() async {
        await connections.shutdown()
    }
}
