import Foundation
import JWTKit

/// What APNs token authentication needs: the team ID, the key ID and the `.p8` signing key
/// (a P-256 private key in PEM). The key is never printed: `description` names the team and
/// key ID only.
public struct APNsCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The environment variables `init(environment:)` reads.
    public enum Variable {
        /// Path of the `.p8` key file.
        public static let keyFile = "HERALD_APNS_KEY_FILE"
        /// The key's PEM text itself (instead of a file).
        public static let key = "HERALD_APNS_KEY"
        /// The 10-character team ID.
        public static let teamID = "HERALD_APNS_TEAM_ID"
        /// The 10-character key ID.
        public static let keyID = "HERALD_APNS_KEY_ID"
    }

    /// The Apple developer team ID (`iss` of the provider token).
    public let teamID: String
    /// The key's ID (`kid` of the provider token).
    public let keyID: String
    /// The parsed signing key.
    let signingKey: ES256PrivateKey

    /// Credentials from PEM text.
    /// - Parameter source: names where the PEM came from, for the error.
    /// - Throws: `PushClientError` when an ID is empty or the PEM is not a P-256 private key.
    public init(teamID: String, keyID: String, privateKeyPEM: String, source: String = "APNs key") throws(PushClientError) {
        guard !teamID.isEmpty else { throw PushClientError(.missingSetting, "team ID is empty", source: Variable.teamID) }
        guard !keyID.isEmpty else { throw PushClientError(.missingSetting, "key ID is empty", source: Variable.keyID) }
        do {
            signingKey = try ES256PrivateKey(pem: privateKeyPEM)
        } catch {
            throw PushClientError(.invalidCredentials, "not a PEM P-256 private key (an APNs .p8 key)", source: source)
        }
        self.teamID = teamID
        self.keyID = keyID
    }

    /// Credentials with the key read from `keyFile`.
    /// - Throws: `PushClientError` naming the file when it cannot be read or parsed.
    public init(teamID: String, keyID: String, keyFile: String) throws(PushClientError) {
        try self.init(teamID: teamID, keyID: keyID, privateKeyPEM: try readText(keyFile), source: keyFile)
    }

    /// Credentials from environment variables (`Variable`): the key from
    /// `HERALD_APNS_KEY_FILE` or `HERALD_APNS_KEY`, plus team and key ID. The executable
    /// passes its environment; libraries never read it themselves.
    /// - Throws: `PushClientError` naming the missing or bad variable.
    public init(environment: [String: String]) throws(PushClientError) {
        let teamID = try required(Variable.teamID, in: environment)
        let keyID = try required(Variable.keyID, in: environment)
        if let file = environment[Variable.keyFile], !file.isEmpty {
            try self.init(teamID: teamID, keyID: keyID, keyFile: file)
        } else if let pem = environment[Variable.key], !pem.isEmpty {
            try self.init(teamID: teamID, keyID: keyID, privateKeyPEM: pem, source: Variable.key)
        } else {
            throw PushClientError(
                .missingSetting, "set \(Variable.keyFile) (a .p8 file) or \(Variable.key) (its PEM text)", source: Variable.keyFile)
        }
    }

    /// `APNs credentials (team …, key …)`: never the key.
    public var description: String { "APNs credentials (team \(teamID), key \(keyID))" }
    /// As `description`.
    public var debugDescription: String { description }
}

/// The whole UTF-8 text of `path`.
func readText(_ path: String) throws(PushClientError) -> String {
    do {
        return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw PushClientError(.unreadableFile, "cannot read: \((error as NSError).localizedDescription)", source: path)
    }
}

/// The non-empty value of `name` in `environment`.
func required(_ name: String, in environment: [String: String]) throws(PushClientError) -> String {
    guard let value = environment[name], !value.isEmpty else {
        throw PushClientError(.missingSetting, "not set", source: name)
    }
    return value
}
