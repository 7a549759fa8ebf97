/// A configuration Herald cannot run with, named by its setting.
public struct HeraldAppError: Error, Sendable, CustomStringConvertible {
    /// The setting at fault.
    public enum Setting: String, Sendable {
        case tokenKey, jwtSecret, dataDirectory
    }

    public var setting: Setting
    public var reason: String

    public init(_ setting: Setting, _ reason: String) {
        self.setting = setting
        self.reason = reason
    }

    public var description: String { "\(setting.rawValue): \(reason)" }
}
