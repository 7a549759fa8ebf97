import Foundation
import HeraldPush
import JWTKit

extension StandInResponder {
    /// The provider token's claims as the stand-in checks them.
    struct ProviderClaims: JWTPayload {
        var iss: String
        var iat: Int64
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// An APNs request: Apple's rules, then the provider token (ES256 against the test key,
    /// `iss` the team, `iat` within the hour), then the answer the token was given (or 200
    /// with `apns-id`).
    func apns(method: String, path: String, headers: [String: String], body: [UInt8]) async -> Answer {
        if let refusal = APNsRules.refusal(method: method, path: path, headers: headers, body: body) {
            return Self.apnsRefusal(refusal.status, refusal.reason)
        }
        if let refusal = await authorizeAPNs(headers["authorization"]) {
            return refusal
        }
        let token = String(path.dropFirst("/3/device/".count))
        if let told = state.answer(for: token) {
            let (status, reason, retryAfter) = told.refusal(fcm: false)
            return Self.apnsRefusal(status, reason, timestamp: status == 410 ? now() * 1000 : nil, retryAfter: retryAfter)
        }
        return Answer(status: 200, reason: nil, headers: ["apns-id": headers["apns-id"] ?? UUID().uuidString.lowercased()])
    }

    /// `nil` when the bearer token is a valid provider token, else Apple's 403.
    private func authorizeAPNs(_ authorization: String?) async -> Answer? {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            return Self.apnsRefusal(403, "MissingProviderToken")
        }
        let jwt = String(authorization.dropFirst("bearer ".count))
        state.sawProviderToken(jwt)
        // A token verified before is not verified again (its signature cannot have changed;
        // its age still is checked): one ES256 verification per request was a tenth of
        // `herald bench push`'s CPU, spent in the stand-in, not in the client measured.
        let issuedAt: Int64
        if let known = state.verifiedProviderToken(jwt) {
            issuedAt = known
        } else {
            let claims: ProviderClaims
            do {
                claims = try await apnsKeys.verify(jwt, as: ProviderClaims.self)
            } catch {
                return Self.apnsRefusal(403, "InvalidProviderToken")
            }
            guard claims.iss == accounts.teamID else { return Self.apnsRefusal(403, "InvalidProviderToken") }
            state.rememberVerifiedProviderToken(jwt, issuedAt: claims.iat)
            issuedAt = claims.iat
        }
        guard now() - issuedAt < 3600 else { return Self.apnsRefusal(403, "ExpiredProviderToken") }
        return nil
    }
}
