/// A configuration Herald cannot run with, named by its setting. Made by this module only
/// (its memberwise initializer is internal).
public struct HeraldAppError: Error, Sendable, CustomStringConvertible {
    /// The setting at fault.
    public enum Setting: String, Sendable {
        case tokenKey, jwtSecret, dataDirectory, pushCredentials
    }

    public var setting: Setting
    public var reason: String

    public var description: String { "\(setting.rawValue): \(reason)" }
}
