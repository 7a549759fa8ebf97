import Foundation
import JWTKit

/// A Google service account for FCM HTTP v1 (the JSON file the Firebase console gives):
/// project, client e-mail, token endpoint and the RSA key that signs the OAuth2 JWT bearer
/// grant. The key is never printed: `description` names the account and project only.
public struct FCMCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The environment variables `init(environment:)` reads.
    public enum Variable {
        /// Path of the service-account JSON file.
        public static let file = "HERALD_FCM_SERVICE_ACCOUNT_FILE"
        /// The service-account JSON itself (instead of a file).
        public static let json = "HERALD_FCM_SERVICE_ACCOUNT"
    }

    /// The Firebase project (`project_id`).
    public let projectID: String
    /// The account's e-mail (`client_email`): `iss` of the grant.
    public let clientEmail: String
    /// Where the grant is exchanged for an access token (`token_uri`).
    public let tokenURI: String
    /// The key's ID (`private_key_id`), sent as `kid` when present.
    public let keyID: String?
    /// The parsed signing key.
    let signingKey: Insecure.RSA.PrivateKey

    /// The members of a service-account file Herald uses.
    private struct Account: Decodable {
        var project_id: String?
        var client_email: String?
        var token_uri: String?
        var private_key_id: String?
        var private_key: String?
    }

    /// Credentials from service-account JSON.
    /// - Parameter source: names where the JSON came from, for the error.
    /// - Throws: `PushClientError` naming the source and the missing or bad member.
    public init(serviceAccountJSON json: Data, source: String) throws(PushClientError) {
        let account: Account
        do {
            account = try JSONDecoder().decode(Account.self, from: json)
        } catch {
            throw PushClientError(.invalidCredentials, "not a service-account JSON object", source: source)
        }
        func member(_ value: String?, _ name: String) throws(PushClientError) -> String {
            guard let value, !value.isEmpty else {
                throw PushClientError(.invalidCredentials, "member \(name) is missing", source: source)
            }
            return value
        }
        projectID = try member(account.project_id, "project_id")
        clientEmail = try member(account.client_email, "client_email")
        tokenURI = try member(account.token_uri, "token_uri")
        let pem = try member(account.private_key, "private_key")
        keyID = account.private_key_id
        do {
            signingKey = try Insecure.RSA.PrivateKey(pem: pem)
        } catch {
            throw PushClientError(.invalidCredentials, "private_key is not a PEM RSA private key", source: source)
        }
    }

    /// Credentials read from a service-account file.
    public init(file: String) throws(PushClientError) {
        try self.init(serviceAccountJSON: Data(try readText(file).utf8), source: file)
    }

    /// Credentials from `HERALD_FCM_SERVICE_ACCOUNT_FILE` or `HERALD_FCM_SERVICE_ACCOUNT`.
    /// The executable passes its environment; libraries never read it themselves.
    public init(environment: [String: String]) throws(PushClientError) {
        if let file = environment[Variable.file], !file.isEmpty {
            try self.init(file: file)
        } else if let json = environment[Variable.json], !json.isEmpty {
            try self.init(serviceAccountJSON: Data(json.utf8), source: Variable.json)
        } else {
            throw PushClientError(
                .missingSetting, "set \(Variable.file) (a service-account JSON file) or \(Variable.json) (its text)",
                source: Variable.file)
        }
    }

    /// `FCM service account … (project …)`: never the key.
    public var description: String { "FCM service account \(clientEmail) (project \(projectID))" }
    /// As `description`.
    public var debugDescription: String { description }
}
