import Crypto
import CryptoExtras
import Foundation

/// Throw-away provider accounts for the stand-in: an APNs `.p8`-style P-256 key with a team
/// and key ID, and an FCM service account with a fresh RSA key. The stand-in is configured
/// with their public halves; clients get `apnsCredentials` / `fcmCredentials(tokenURL:)`.
public struct StandInAccounts: Sendable {
    /// The APNs team ID.
    public let teamID: String
    /// The APNs key ID.
    public let keyID: String
    /// The APNs signing key, PEM (what a `.p8` file holds).
    public let apnsPrivateKeyPEM: String
    /// Its public key, PEM: what the stand-in verifies with.
    public let apnsPublicKeyPEM: String
    /// The FCM project.
    public let projectID: String
    /// The FCM service account's e-mail.
    public let clientEmail: String
    /// The service account's RSA key, PEM.
    public let fcmPrivateKeyPEM: String
    /// Its public key, PEM: what the stand-in verifies grants with.
    public let fcmPublicKeyPEM: String

    /// Makes new keys (an RSA-2048 key takes a moment).
    /// - Throws: `PushClientError` if key generation fails.
    public init(teamID: String = "HERALDTEAM", keyID: String = "STANDIN001", projectID: String = "herald-standin") throws(PushClientError) {
        self.teamID = teamID
        self.keyID = keyID
        self.projectID = projectID
        clientEmail = "push@\(projectID).iam.gserviceaccount.com"
        let apnsKey = P256.Signing.PrivateKey()
        apnsPrivateKeyPEM = apnsKey.pemRepresentation
        apnsPublicKeyPEM = apnsKey.publicKey.pemRepresentation
        do {
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            fcmPrivateKeyPEM = rsa.pemRepresentation
            fcmPublicKeyPEM = rsa.publicKey.pemRepresentation
        } catch {
            throw PushClientError(.standInFailed, "cannot make an RSA key: \(error)", source: "stand-in accounts")
        }
    }

    /// APNs credentials signing with the stand-in's test key.
    public func apnsCredentials() throws(PushClientError) -> APNsCredentials {
        try APNsCredentials(teamID: teamID, keyID: keyID, privateKeyPEM: apnsPrivateKeyPEM, source: "stand-in APNs key")
    }

    /// The service-account JSON, with `token_uri` the stand-in's token endpoint.
    public func serviceAccountJSON(tokenURL: String) -> Data {
        let account: [String: String] = [
            "type": "service_account", "project_id": projectID, "private_key_id": "standin-rsa",
            "private_key": fcmPrivateKeyPEM, "client_email": clientEmail, "token_uri": tokenURL,
        ]
        return (try? JSONSerialization.data(withJSONObject: account, options: [.sortedKeys])) ?? Data()
    }

    /// FCM credentials from `serviceAccountJSON(tokenURL:)`.
    public func fcmCredentials(tokenURL: String) throws(PushClientError) -> FCMCredentials {
        try FCMCredentials(serviceAccountJSON: serviceAccountJSON(tokenURL: tokenURL), source: "stand-in service account")
    }
}
