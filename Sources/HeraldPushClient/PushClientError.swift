/// The one error type of `HeraldPushClient`: credentials or configuration that cannot be
/// used, naming the file, variable or setting at fault. Never carries key material.
public struct PushClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable classification.
    public enum Code: String, Sendable, Hashable {
        /// A file could not be read.
        case unreadableFile
        /// A required setting or environment variable is absent.
        case missingSetting
        /// A key, service account or certificate is malformed.
        case invalidCredentials
        /// A URL or other setting is malformed.
        case invalidConfiguration
        /// The stand-in could not start.
        case standInFailed
    }

    /// The classification.
    public var code: Code
    /// What is wrong, for humans.
    public var reason: String
    /// Where: a file path, an environment variable or a setting's name.
    public var source: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String, source: String) {
        self.code = code
        self.reason = reason
        self.source = source
    }

    /// `source: reason`.
    public var description: String { "\(source): \(reason)" }
}
