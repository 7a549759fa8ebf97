import Foundation
import Synchronization
import Testing

@testable import HeraldAPI

@Suite("Verified-token cache")
struct VerifiedTokenCacheTests {
    typealias H = APITestHarness

    /// A clock tests move by hand.
    final class ManualClock: Sendable {
        private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
    }

    @Test("a token that verified is answered from the cache until it expires, then refused")
    func cachedTokenExpires() async throws {
        let clock = ManualClock()
        let authenticator = try await APIAuthenticator(secret: H.secret, now: { clock.now })
        let token = try await authenticator.issueToken(user: "_u1", container: H.container, ttl: .seconds(60))
        #expect(try await authenticator.authenticate(authorization: "Bearer \(token)").user == "_u1")
        #expect(authenticator.verified.count == 1)
        clock.advance(59)
        #expect(try await authenticator.authenticate(authorization: "Bearer \(token)").user == "_u1")
        clock.advance(1)
        await #expect(throws: APIError(.authenticationFailed, "the bearer token expired")) {
            try await authenticator.authenticate(authorization: "Bearer \(token)")
        }
        #expect(authenticator.verified.count == 0)
    }

    @Test("a token differing from a cached one in its signature is verified, and refused")
    func alteredTokenIsVerified() async throws {
        let authenticator = try await APIAuthenticator(secret: H.secret)
        let token = try await authenticator.issueToken(user: "_u1", container: H.container)
        _ = try await authenticator.authenticate(authorization: "Bearer \(token)")
        // The signature's first character: all of its 6 bits are signature bits (the last
        // character's low bits are padding, so changing it may leave the signature as it was).
        let signatureStart = token.index(after: try #require(token.lastIndex(of: ".")))
        let replacement: Character = token[signatureStart] == "A" ? "B" : "A"
        var altered = token
        altered.replaceSubrange(signatureStart...signatureStart, with: String(replacement))
        await #expect(throws: APIError.self) { try await authenticator.authenticate(authorization: "Bearer \(altered)") }
        #expect(authenticator.verified.count == 1)
    }

    @Test("the cache holds at most its capacity, dropping the oldest half when full")
    func bounded() {
        let cache = VerifiedTokenCache(capacity: 4)
        let caller = Caller(user: "_u", container: "c", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<5 { cache.insert("t\(index)", caller: caller) }
        #expect(cache.count == 2)
        #expect(cache.caller(for: "t0", now: now) == nil)
        #expect(cache.caller(for: "t2", now: now) == nil)
        #expect(cache.caller(for: "t3", now: now) == caller)
        #expect(cache.caller(for: "t4", now: now) == caller)
    }
}
