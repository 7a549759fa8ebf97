import Foundation
import JWTKit

/// Decides who is asking: verifies `Authorization: Bearer <JWT>` (HS256, signed with the
/// configured secret) and reads its claims — `sub` (the user record name), `cid` (the
/// container the token is for) and `exp` (required). Also issues development tokens
/// (`herald token issue`).
///
/// A value type over jwt-kit's `JWTKeyCollection` (an actor); share one between requests.
public struct APIAuthenticator: Sendable {
    /// The shortest secret accepted, in bytes (RFC 7518 §3.2: a key at least as long as the
    /// SHA-256 output).
    public static let minimumSecretLength = 32
    /// Longer `Authorization` values are refused without parsing.
    static let maximumTokenLength = 8192
    /// The only signing algorithm accepted.
    static let algorithm = "HS256"

    private let keys: JWTKeyCollection
    private let now: @Sendable () -> Date
    /// Tokens that verified, shared by the copies of this authenticator.
    let verified = VerifiedTokenCache()

    /// An authenticator whose HMAC key is the raw bytes of `secret`.
    /// - Parameter now: the clock `exp` and `nbf` are checked against (and issued tokens
    ///   start from); tests pass a fixed one.
    /// - Throws: `APIError` (`INVALID_CONFIGURATION`) when the secret is shorter than 32 bytes.
    public init(secret: some Sequence<UInt8>, now: @escaping @Sendable () -> Date = { Date() }) async throws(APIError) {
        let bytes = Array(secret)
        guard bytes.count >= Self.minimumSecretLength else {
            throw APIError(
                .invalidConfiguration,
                "the JWT secret must be at least \(Self.minimumSecretLength) bytes, got \(bytes.count)")
        }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: bytes), digestAlgorithm: .sha256)
        self.keys = keys
        self.now = now
    }

    /// An authenticator whose HMAC key is the UTF-8 bytes of `secret` (what jwt.io and most
    /// JWT libraries do with a text secret). Generate one with e.g. `openssl rand -hex 32`.
    /// - Throws: `APIError` (`INVALID_CONFIGURATION`) when it has fewer than 32 UTF-8 bytes.
    public init(secret: String, now: @escaping @Sendable () -> Date = { Date() }) async throws(APIError) {
        try await self.init(secret: Array(secret.utf8), now: now)
    }

    /// Who is asking, from the `Authorization` header value.
    /// - Throws: `APIError` — `AUTHENTICATION_REQUIRED` when there is no bearer token,
    ///   `AUTHENTICATION_FAILED` when it is malformed, not HS256, signed with another key,
    ///   expired, not yet valid, or lacks `sub`, `cid` or `exp`.
    public func authenticate(authorization: String?) async throws(APIError) -> Caller {
        guard let authorization, let token = Self.bearerToken(authorization) else {
            throw APIError(.authenticationRequired, "send a bearer token: Authorization: Bearer <JWT>")
        }
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw APIError(.authenticationFailed, "the bearer token is too long")
        }
        if let caller = verified.caller(for: token, now: now()) { return caller }
        guard Self.headerAlgorithm(of: token) == Self.algorithm else {
            throw APIError(.authenticationFailed, "the bearer token is not an \(Self.algorithm) JWT")
        }
        let claims: AccessClaims
        do {
            claims = try await keys.verify(token, as: AccessClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw APIError(.authenticationFailed, "the bearer token's signature does not verify")
        } catch {
            throw APIError(.authenticationFailed, "the bearer token is malformed")
        }
        let caller = try caller(from: claims)
        verified.insert(token, caller: caller)
        return caller
    }

    private func caller(from claims: AccessClaims) throws(APIError) -> Caller {
        guard let expiry = claims.exp else {
            throw APIError(.authenticationFailed, "the bearer token has no expiry (claim exp)")
        }
        let now = now()
        guard now < expiry.value else {
            throw APIError(.authenticationFailed, "the bearer token expired")
        }
        if let notBefore = claims.nbf, now < notBefore.value {
            throw APIError(.authenticationFailed, "the bearer token is not valid yet (claim nbf)")
        }
        guard let user = claims.sub?.value, !user.isEmpty else {
            throw APIError(.authenticationFailed, "the bearer token names no user (claim sub)")
        }
        guard let container = claims.cid, !container.isEmpty else {
            throw APIError(.authenticationFailed, "the bearer token names no container (claim cid)")
        }
        return Caller(user: user, container: container, expiresAt: expiry.value)
    }

    /// A signed HS256 token for `user` in `container`, valid from now for `ttl`: for
    /// development (`herald token issue --user --container [--ttl]`) and tests.
    /// - Throws: `APIError` (`BAD_REQUEST`) for an empty user or container or a
    ///   non-positive `ttl`; `INTERNAL_ERROR` if signing fails.
    public func issueToken(user: String, container: String, ttl: Duration = .seconds(3600)) async throws(APIError) -> String {
        guard !user.isEmpty, !container.isEmpty else {
            throw APIError(.badRequest, "a token needs a user and a container")
        }
        guard ttl > .zero else { throw APIError(.badRequest, "the token lifetime must be positive, got \(ttl)") }
        let issued = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        let (seconds, attoseconds) = ttl.components
        let lifetime = Double(seconds) + Double(attoseconds) / 1e18
        let claims = AccessClaims(
            user: user, container: container, expires: issued.addingTimeInterval(lifetime.rounded(.up)), issued: issued)
        return try await sign(claims)
    }

    /// `claims` signed with the configured key (HS256).
    /// - Throws: `APIError` (`INTERNAL_ERROR`) if signing fails.
    func sign(_ claims: AccessClaims) async throws(APIError) -> String {
        do {
            return try await keys.sign(claims)
        } catch {
            throw APIError(.internalError, "cannot sign the token")
        }
    }

    /// The token of `Bearer <token>` (scheme case-insensitive), or `nil` for another scheme.
    static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        // ASCII case folding: no other character lower-cases to one of "bearer"'s letters.
        guard parts.count == 2, parts[0].utf8.count == 6,
            zip(parts[0].utf8, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let rest = parts[1]
        // The usual token has nothing to trim; Foundation's trimming (per request, a
        // bridged NSString) only when an end is not plain ASCII.
        if let first = rest.utf8.first, let last = rest.utf8.last, Self.isPlain(first), Self.isPlain(last) {
            return String(rest)
        }
        let token = rest.trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// A printable ASCII byte other than space: nothing `trimmingCharacters(in: .whitespaces)` removes.
    private static func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    /// The `alg` of a compact JWS header, or `nil` when it cannot be read. Checked before
    /// jwt-kit verifies, which uses the configured key whatever the header says.
    static func headerAlgorithm(of token: String) -> String? {
        guard let encoded = token.split(separator: ".", omittingEmptySubsequences: false).first,
            encoded.utf8.count <= 1024
        else { return nil }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return header["alg"] as? String
    }
}
