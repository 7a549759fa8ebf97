import Foundation
import JWTKit
import Logging

/// A local APNs + FCM stand-in: HTTP/2 over TLS (ALPN `h2`; `StandInServer`) with a
/// self-signed CA made at start-up.
///
/// It checks every APNs request against Apple's rules (`APNsRules`) and verifies its ES256
/// provider token against the test key; it serves an OAuth2 token endpoint (`/token`) that
/// verifies the service account's RS256 grant, and FCM's `messages:send`. It answers 200,
/// or what it was told for a token (`answer(_:forToken:)`: 410/400/429/503/403…), and
/// records every request for tests and for `make demo` to print. Part of the product, not
/// only the tests: `make demo` and `herald bench push` run against it.
public final class PushStandIn: Sendable {
    /// Where to listen and what to keep.
    public struct Configuration: Sendable {
        /// The address to listen on. Default 127.0.0.1.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one. Default 0.
        public var port = 0
        /// How many requests to record; later ones are answered, counted, not kept. Default 100 000.
        public var recordLimit = 100_000
        /// Whether records keep the body. Default true.
        public var recordBodies = true
        /// Told of every request as soon as its answer is decided (before the answer is
        /// written), recorded or not: what `herald bench push` times acknowledgements with.
        /// Called on the stand-in's tasks, so it must be quick. Default: none.
        public var onAnswer: (@Sendable (RecordedPush) -> Void)?

        /// The defaults above.
        public init() {}
    }

    /// The CA that signed the stand-in's certificate, PEM: what clients must trust.
    public let caPEM: String
    /// The port it listens on.
    public let port: Int
    /// `https://<host>:<port>`: the base URL for both providers.
    public let baseURL: String
    /// The accounts whose keys it accepts.
    public let accounts: StandInAccounts
    private let state: StandInState
    private let server: StandInServer

    private init(caPEM: String, port: Int, baseURL: String, accounts: StandInAccounts, state: StandInState, server: StandInServer) {
        self.caPEM = caPEM
        self.port = port
        self.baseURL = baseURL
        self.accounts = accounts
        self.state = state
        self.server = server
    }

    /// Starts the stand-in and returns once it listens.
    /// - Parameter now: seconds since 1970, for provider-token ages and 410 timestamps.
    /// - Throws: `PushClientError` (`standInFailed`) when the keys are unusable or the
    ///   address cannot be bound.
    public static func start(
        accounts: StandInAccounts, configuration: Configuration = .init(), logger: Logger,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(PushClientError) -> PushStandIn {
        let certificates = try StandInCertificates()
        let apnsKeys = JWTKeyCollection()
        let fcmKeys = JWTKeyCollection()
        do {
            await apnsKeys.add(ecdsa: try ES256PublicKey(pem: accounts.apnsPublicKeyPEM), kid: JWKIdentifier(string: accounts.keyID))
            await fcmKeys.add(rsa: try Insecure.RSA.PublicKey(pem: accounts.fcmPublicKeyPEM), digestAlgorithm: .sha256)
        } catch {
            throw PushClientError(.standInFailed, "the accounts' public keys are unusable: \(error)", source: "stand-in accounts")
        }
        let state = StandInState(recordLimit: configuration.recordLimit, recordBodies: configuration.recordBodies)
        let responder = StandInResponder(
            state: state, accounts: accounts, apnsKeys: apnsKeys, fcmKeys: fcmKeys, now: now, onAnswer: configuration.onAnswer)
        let address = "\(configuration.host):\(configuration.port)"
        let server: StandInServer
        do {
            server = try await StandInServer.start(
                host: configuration.host, port: configuration.port, tls: certificates.serverConfiguration, responder: responder)
        } catch {
            throw PushClientError(.standInFailed, "cannot serve: \(error)", source: address)
        }
        let baseURL = "https://\(configuration.host):\(server.port)"
        logger.info("push stand-in listening", metadata: ["url": .string(baseURL), "http": "h2 over TLS"])
        return PushStandIn(
            caPEM: certificates.caPEM, port: server.port, baseURL: baseURL, accounts: accounts,
            state: state, server: server)
    }

    /// The OAuth2 token endpoint (`<baseURL>/token`).
    public var tokenURL: String { baseURL + "/token" }

    /// From now on answer pushes to `token` with `answer` (`nil`: accept again).
    public func answer(_ answer: StandInAnswer?, forToken token: String) {
        state.setAnswer(answer, for: token)
    }

    /// The requests received so far (up to the record limit), oldest first.
    public var requests: [RecordedPush] { state.records }
    /// How many requests were received, recorded or not.
    public var received: Int { state.received }
    /// How many distinct APNs provider tokens clients have presented.
    public var providerTokensSeen: Int { state.providerTokenCount }
    /// How many FCM access tokens the token endpoint issued.
    public var accessTokensIssued: Int { state.accessTokenCount }

    /// Forgets the recorded requests.
    public func removeRequests() { state.removeRecords() }

    /// Writes `caPEM` to `path`, for a client's CA file setting.
    /// - Throws: `PushClientError` naming the path.
    public func writeCAFile(to path: String) throws(PushClientError) {
        do {
            try Data(caPEM.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw PushClientError(.unreadableFile, "cannot write the CA file: \(error)", source: path)
        }
    }

    /// Stops listening and waits for the server to close.
    public func stop() async {
        await server.stop()
    }
}
