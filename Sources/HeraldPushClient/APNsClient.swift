import Foundation
import HeraldModel
import HeraldPush
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOPosix

/// Sends pushes to the APNs provider API over HTTP/2 with token authentication.
///
/// Each push is one POST on a pool of HTTP/2 connections (`HTTP2ProviderClient`, one pool
/// per provider URL), to the production or development URL by the device's environment. The request is checked
/// against Apple's rules first (`APNsRequest`); a push that breaks them is answered
/// locally with Apple's status and reason, without a round trip.
public final class APNsClient: PushTransport {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The production provider URL. Default `https://api.push.apple.com`.
        public var productionURL = "https://" + APNsRequest.productionHost
        /// The development provider URL. Default `https://api.sandbox.push.apple.com`.
        public var developmentURL = "https://" + APNsRequest.developmentHost
        /// A PEM file of extra CAs to trust (tests, corporate proxies). Default none.
        public var caFile: String?
        /// HTTP/2 connections per client. Default 2.
        public var connections = 2
        /// How long one push may take, connection included. Default 10 s.
        public var timeout: Duration = .seconds(10)
        /// When provider tokens are replaced.
        public var tokenRule = ProviderTokenRule()

        /// The defaults above.
        public init() {}
    }

    private let configuration: Configuration
    private let production: HTTP2ProviderClient
    private let development: HTTP2ProviderClient
    private let providerToken: APNsProviderToken
    private let logger: Logger

    /// Creates a client; connects on first use.
    /// - Parameter now: seconds since 1970 for the provider token's `iat` (tests age it).
    /// - Throws: `PushClientError` for a bad CA file or provider URL.
    public init(
        credentials: APNsCredentials, configuration: Configuration = .init(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(PushClientError) {
        self.configuration = configuration
        self.logger = logger
        production = try HTTP2ProviderClient(
            baseURL: configuration.productionURL, caFile: configuration.caFile, connections: configuration.connections,
            connectTimeout: configuration.timeout, eventLoopGroup: eventLoopGroup, setting: "APNs production URL")
        development =
            configuration.developmentURL == configuration.productionURL
            ? production
            : try HTTP2ProviderClient(
                baseURL: configuration.developmentURL, caFile: configuration.caFile, connections: configuration.connections,
                connectTimeout: configuration.timeout, eventLoopGroup: eventLoopGroup, setting: "APNs development URL")
        providerToken = APNsProviderToken(credentials: credentials, rule: configuration.tokenRule, now: now)
    }

    /// How many provider tokens this client has signed.
    public var providerTokensMinted: Int {
        get async { await providerToken.minted }
    }

    /// The provider token requests carry now (`herald bench push`'s baseline sends it
    /// with its own plain HTTP client).
    public func currentProviderToken() async throws -> String {
        try await providerToken.token()
    }

    /// Sends `request`; every failure is a `ProviderResponse`.
    public func send(_ request: PushRequest) async -> ProviderResponse {
        let built: APNsRequest
        do {
            built = try APNsRequest(request)
        } catch {
            return .rejected(status: error.status, reason: error.reason, timestamp: nil, retryAfterSeconds: nil)
        }
        let bearer: String
        do {
            bearer = try await providerToken.token()
        } catch {
            logger.error("cannot sign the APNs provider token", metadata: ["error": "\(error)"])
            return .rejected(status: 403, reason: "InvalidProviderToken", timestamp: nil, retryAfterSeconds: nil)
        }
        let client = built.host == APNsRequest.productionHost ? production : development
        var headers = client.postHeaders(path: built.path)
        headers.add(name: "authorization", value: "bearer " + bearer)
        for (name, value) in built.headers {
            // The notification ID differs per push: kept out of the HPACK table.
            headers.add(name: name, value: value, indexing: name == "apns-id" ? .nonIndexable : .indexable)
        }
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(built.body.count))
        let response = await client.send(headers, body: ByteBuffer(bytes: built.body), timeout: configuration.timeout)
        return await interpret(response, bearer: bearer)
    }

    /// Turns the HTTP answer into a `ProviderResponse` (`{"reason", "timestamp"}` bodies).
    private func interpret(_ exchange: ProviderExchange.Outcome, bearer: String) async -> ProviderResponse {
        switch exchange {
        case .failed(let description):
            return .unreachable(description)
        case .answered(let status, let headers, let body):
            if status == 200 { return .accepted(providerID: headers.first(name: "apns-id")) }
            struct Refusal: Decodable {
                var reason: String?
                var timestamp: Int64?
            }
            let refusal = try? JSONDecoder().decode(Refusal.self, from: Data(body))
            let reason = refusal?.reason ?? "HTTP \(status)"
            if reason == "ExpiredProviderToken" { await providerToken.markRejected(bearer) }
            return .rejected(
                status: status, reason: reason, timestamp: refusal?.timestamp,
                retryAfterSeconds: ProviderExchange.retryAfter(headers))
        }
    }

    /// Closes the connections; call once when done.
    public func shutdown() async {
        await production.shutdown()
        if development !== production { await development.shutdown() }
    }
}
