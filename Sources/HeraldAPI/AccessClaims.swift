import Foundation
import JWTKit

/// The claims of a Herald bearer token (HS256 JWT): who asks (`sub`, a user record name),
/// for which container (`cid`), and until when (`exp`, required). Every claim is optional
/// here so that `APIAuthenticator` can say which one is missing.
struct AccessClaims: JWTPayload, Equatable {
    var sub: SubjectClaim?
    var cid: String?
    var exp: ExpirationClaim?
    var iat: IssuedAtClaim?
    var nbf: NotBeforeClaim?

    /// Claims from plain values (`nil` leaves a claim out).
    init(user: String?, container: String?, expires: Date?, issued: Date? = nil, notBefore: Date? = nil) {
        sub = user.map { SubjectClaim(value: $0) }
        cid = container
        exp = expires.map { ExpirationClaim(value: $0) }
        iat = issued.map { IssuedAtClaim(value: $0) }
        nbf = notBefore.map { NotBeforeClaim(value: $0) }
    }

    /// Checked by `APIAuthenticator` against its own clock, not here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
