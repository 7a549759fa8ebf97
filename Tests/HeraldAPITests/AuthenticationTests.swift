import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Bearer token authentication")
struct AuthenticationTests {
    typealias H = APITestHarness

    /// A signed JWT with arbitrary claims (tokens the authenticator would not issue).
    static func sign(
        user: String? = "_u1", container: String? = H.container, expires: Date? = inAnHour, notBefore: Date? = nil,
        secret: String = H.secret
    ) async throws -> String {
        let claims = AccessClaims(user: user, container: container, expires: expires, notBefore: notBefore)
        return try await APIAuthenticator(secret: secret).sign(claims)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let inAnHour = Date().addingTimeInterval(3600)

    @Test("every /v1 route refuses a request without a token", arguments: try await H().api.routes.filter { $0.path.hasPrefix("/v1/") })
    func everyRouteNeedsAToken(route: APIRoute) async throws {
        let harness = try await H()
        let path = route.path.replacingOccurrences(of: "{container}", with: H.container)
            .replacingOccurrences(of: "{database}", with: "private").replacingOccurrences(of: "{subscriptionID}", with: "s1")
            .replacingOccurrences(of: "{scheduleID}", with: "s1")
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: HTTPRequest.Method(route.method)!, body: ByteBuffer(string: "{}"))
            let error = try response.error(.unauthorized)
            #expect(error.serverErrorCode == "AUTHENTICATION_REQUIRED")
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="herald""#)
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a token the server issued lets its user in; the caller is its sub and cid")
    func issuedTokenAuthenticates() async throws {
        let harness = try await H()
        let token = try await harness.authenticator.issueToken(user: "_u7", container: H.container, ttl: .seconds(90))
        let caller = try await harness.authenticator.authenticate(authorization: "Bearer \(token)")
        #expect(caller.user == "_u7")
        #expect(caller.container == H.container)
        #expect(caller.expiresAt.timeIntervalSinceNow > 80 && caller.expiresAt.timeIntervalSinceNow <= 91)
        // The scheme is case-insensitive.
        #expect(try await harness.authenticator.authenticate(authorization: "bearer \(token)").user == "_u7")
    }

    @Test("missing, empty or non-bearer Authorization is AUTHENTICATION_REQUIRED", arguments: [nil, "", "Bearer", "Bearer   ", "Basic dXNlcjpwYXNz"])
    func noBearerToken(header: String?) async throws {
        let harness = try await H()
        await #expect(throws: APIError(.authenticationRequired, "send a bearer token: Authorization: Bearer <JWT>")) {
            try await harness.authenticator.authenticate(authorization: header)
        }
    }

    /// Tokens that must be refused with AUTHENTICATION_FAILED, and why.
    static func refusedTokens() async throws -> [(String, String)] {
        let good = try await sign()
        let parts = good.split(separator: ".").map(String.init)
        // The payload rewritten to another user, the signature kept: tampering.
        var tamperedClaims = try JSONSerialization.jsonObject(with: Data(base64Encoded: parts[1].padded)!) as! [String: Any]
        tamperedClaims["sub"] = "_u2"
        let tamperedPayload = base64URL(try JSONSerialization.data(withJSONObject: tamperedClaims))
        // One character of the signature changed.
        var signature = Array(parts[2])
        signature[4] = signature[4] == "A" ? "B" : "A"
        let noneHeader = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let hs512Header = base64URL(Data(#"{"alg":"HS512","typ":"JWT"}"#.utf8))
        return [
            ("not a JWT", "HS256"),
            ("\(parts[0]).\(tamperedPayload).\(parts[2])", "signature"),
            ("\(parts[0]).\(parts[1]).\(String(signature))", "signature"),
            (try await sign(secret: "another-secret-of-at-least-32-bytes!!"), "signature"),
            ("\(noneHeader).\(parts[1]).", "HS256"),
            ("\(hs512Header).\(parts[1]).\(parts[2])", "HS256"),
            (try await sign(expires: Date().addingTimeInterval(-5)), "expired"),
            (try await sign(expires: nil), "exp"),
            (try await sign(user: nil), "sub"),
            (try await sign(container: nil), "cid"),
            (try await sign(user: ""), "sub"),
            (try await sign(container: ""), "cid"),
            (try await sign(notBefore: inAnHour), "nbf"),
            (String(repeating: "a", count: 9000), "too long"),
        ]
    }

    @Test("tampered, foreign-key, expired, unsigned or incomplete tokens are AUTHENTICATION_FAILED")
    func refusedTokensFail() async throws {
        let harness = try await H()
        for (token, reason) in try await Self.refusedTokens() {
            do {
                let caller = try await harness.authenticator.authenticate(authorization: "Bearer \(token)")
                Issue.record("accepted \(token.prefix(40))… as \(caller)")
            } catch {
                #expect(error.code == .authenticationFailed, "\(reason)")
                #expect(error.reason.contains(reason), "\(error.reason) should mention \(reason)")
            }
        }
    }

    @Test("a refused token answers 401 AUTHENTICATION_FAILED with an invalid_token challenge")
    func refusedOverHTTP() async throws {
        let harness = try await H()
        let expired = try await APIAuthenticator(secret: H.secret, now: { Date(timeIntervalSince1970: 1_000) })
            .issueToken(user: "_u1", container: H.container, ttl: .seconds(60))
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("badge"), method: .get, headers: [.authorization: "Bearer \(expired)"])
            let error = try response.error(.unauthorized)
            #expect(error.serverErrorCode == "AUTHENTICATION_FAILED")
            #expect(error.reason == "the bearer token expired")
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="herald", error="invalid_token""#)
        }
    }

    @Test("a token for another container is ACCESS_DENIED")
    func wrongContainer() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<2)
        let headers = try await harness.authorization("_u1", container: H.otherContainer)
        try await harness.application().test(.router) { client in
            for (uri, method) in [(H.path("notifications/changes"), HTTPRequest.Method.post), (H.path("badge"), .get), (H.path("private/subscriptions"), .get)] {
                let response = try await client.execute(uri: uri, method: method, headers: headers)
                #expect(try response.error(.forbidden).serverErrorCode == "ACCESS_DENIED")
            }
        }
    }

    @Test("a secret shorter than 32 bytes is refused")
    func shortSecret() async {
        await #expect(throws: APIError.self) { try await APIAuthenticator(secret: "too short") }
        do {
            _ = try await APIAuthenticator(secret: [UInt8](repeating: 1, count: 31))
            Issue.record("accepted a 31-byte secret")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test("issuing refuses empty names and non-positive lifetimes")
    func issuingValidates() async throws {
        let harness = try await H()
        await #expect(throws: APIError.self) { try await harness.authenticator.issueToken(user: "", container: H.container) }
        await #expect(throws: APIError.self) { try await harness.authenticator.issueToken(user: "_u1", container: "") }
        await #expect(throws: APIError.self) { try await harness.authenticator.issueToken(user: "_u1", container: H.container, ttl: .zero) }
    }
}

extension String {
    /// Base64url made standard and padded, for Foundation's decoder.
    var padded: String {
        let standard = replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }
}
