import Foundation
import HeraldApp

/// The two secrets a reader needs, from flags, then the environment, then — only on the
/// embedded broker — fixed development values (logged as such).
enum Secrets {
    /// A development change-token key: 32 bytes, hex. Never used with `--brokers`.
    static let developmentTokenKey = HeraldConfiguration.Secret.development.value
    /// A development JWT secret. Never used with `--brokers`.
    static let developmentJWTSecret = HeraldConfiguration.Secret.developmentJWT.value

    static func tokenKey(_ flag: String?, embedded: Bool) throws -> (value: String, development: Bool) {
        try pick(flag, environment: "HERALD_TOKEN_KEY", development: developmentTokenKey, embedded: embedded, name: "--token-key")
    }

    static func jwtSecret(_ flag: String?, embedded: Bool) throws -> (value: String, development: Bool) {
        try pick(flag, environment: "HERALD_JWT_SECRET", development: developmentJWTSecret, embedded: embedded, name: "--jwt-secret")
    }

    private static func pick(
        _ flag: String?, environment: String, development: String, embedded: Bool, name: String
    ) throws -> (value: String, development: Bool) {
        if let flag, !flag.isEmpty { return (flag, false) }
        if let value = ProcessInfo.processInfo.environment[environment], !value.isEmpty { return (value, false) }
        guard embedded else {
            throw CommandFailure.invalidInput("\(name) (or $\(environment)) is required with --brokers")
        }
        return (development, true)
    }
}
