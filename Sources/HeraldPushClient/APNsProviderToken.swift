import Foundation
import JWTKit

/// The APNs provider token (an ES256 JWT: `kid` the key ID, `iss` the team ID, `iat` whole
/// seconds), signed once and shared by every request until `ProviderTokenRule` says a new
/// one is due. Concurrent callers during a refresh wait for the same new token.
actor APNsProviderToken {
    /// The claims Apple reads.
    struct Claims: JWTPayload {
        var iss: String
        var iat: Int64
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let keys = JWTKeyCollection()
    private let credentials: APNsCredentials
    private let rule: ProviderTokenRule
    private let now: @Sendable () -> Int64
    private var current: (token: String, issuedAt: Int64)?
    private var rejected = false
    private var minting: Task<(token: String, issuedAt: Int64), any Error>?
    private var keyAdded = false
    /// How many tokens were signed (for tests and metrics).
    private(set) var minted = 0

    /// - Parameter now: seconds since 1970; injected so tests can age the token.
    init(credentials: APNsCredentials, rule: ProviderTokenRule, now: @escaping @Sendable () -> Int64) {
        self.credentials = credentials
        self.rule = rule
        self.now = now
    }

    /// The token to send now.
    func token() async throws -> String {
        if let current, !rule.isDue(age: .seconds(now() - current.issuedAt), rejected: rejected) {
            return current.token
        }
        if let minting { return try await minting.value.token }
        // No suspension before `minting` is set: callers arriving meanwhile (the actor is
        // reentrant at each await) wait for this task instead of minting their own.
        let addKey = !keyAdded
        keyAdded = true
        let task = Task { [keys, credentials, now] in
            if addKey { await keys.add(ecdsa: credentials.signingKey, kid: JWKIdentifier(string: credentials.keyID)) }
            let issuedAt = now()
            var header = JWTHeader()
            header.kid = credentials.keyID
            header.alg = "ES256"
            let token = try await keys.sign(Claims(iss: credentials.teamID, iat: issuedAt), header: header)
            return (token: token, issuedAt: issuedAt)
        }
        minting = task
        defer { minting = nil }
        let fresh = try await task.value
        current = fresh
        rejected = false
        minted += 1
        return fresh.token
    }

    /// APNs answered `ExpiredProviderToken` to `token`: replace it when the rule allows.
    func markRejected(_ token: String) {
        if current?.token == token { rejected = true }
    }
}
