import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// The FCM OAuth2 access token: a JWT bearer grant (RS256, signed with the service
/// account's key) exchanged at `token_uri`, kept until `margin` before it expires.
/// Concurrent callers during a refresh wait for the same exchange.
actor FCMAccessToken {
    /// The grant's claims (Google's "Using OAuth 2.0 for Server to Server Applications").
    struct Grant: JWTPayload {
        var iss: String
        var scope: String
        var aud: String
        var iat: Int64
        var exp: Int64
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The token endpoint's answer.
    private struct Answer: Decodable {
        var access_token: String
        var expires_in: Int64?
    }

    /// The scope FCM sends need.
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    private let keys = JWTKeyCollection()
    private let credentials: FCMCredentials
    private let tokenURL: String
    private let margin: Int64
    private let now: @Sendable () -> Int64
    private var current: (token: String, expiresAt: Int64)?
    private var fetching: Task<(token: String, expiresAt: Int64), any Error>?
    private var keyAdded = false

    init(credentials: FCMCredentials, tokenURL: String, margin: Duration, now: @escaping @Sendable () -> Int64) {
        self.credentials = credentials
        self.tokenURL = tokenURL
        self.margin = margin.components.seconds
        self.now = now
    }

    /// The access token to send now, fetching a new one when needed.
    /// - Throws: `PushClientError` when the token endpoint refuses or cannot be reached.
    func token(using client: HTTPClient, timeout: Duration) async throws -> String {
        if let current, now() < current.expiresAt - margin { return current.token }
        if let fetching { return try await fetching.value.token }
        if !keyAdded {
            await keys.add(rsa: credentials.signingKey, digestAlgorithm: .sha256, kid: credentials.keyID.map(JWKIdentifier.init(string:)))
            keyAdded = true
        }
        let task = Task { [keys, credentials, tokenURL, now] in
            try await Self.exchange(keys: keys, credentials: credentials, tokenURL: tokenURL, now: now(), client: client, timeout: timeout)
        }
        fetching = task
        defer { fetching = nil }
        let fresh = try await task.value
        current = fresh
        return fresh.token
    }

    /// Drops the cached token (the provider answered 401 to it).
    func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }

    /// Signs a grant and exchanges it for an access token.
    private static func exchange(
        keys: JWTKeyCollection, credentials: FCMCredentials, tokenURL: String, now: Int64, client: HTTPClient, timeout: Duration
    ) async throws -> (token: String, expiresAt: Int64) {
        var header = JWTHeader()
        header.alg = "RS256"
        header.kid = credentials.keyID
        let grant = Grant(iss: credentials.clientEmail, scope: scope, aud: credentials.tokenURI, iat: now, exp: now + 3600)
        let assertion = try await keys.sign(grant, header: header)
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        request.body = .bytes(ByteBuffer(string: form))
        switch await ProviderExchange.perform(request, on: client, timeout: timeout) {
        case .failed(let description):
            throw PushClientError(.invalidCredentials, "token endpoint unreachable: \(description)", source: tokenURL)
        case .answered(let status, _, let body):
            guard status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)) else {
                let text = String(decoding: body.prefix(200), as: UTF8.self)
                throw PushClientError(.invalidCredentials, "token endpoint answered \(status): \(text)", source: tokenURL)
            }
            return (answer.access_token, now + (answer.expires_in ?? 3600))
        }
    }
}
