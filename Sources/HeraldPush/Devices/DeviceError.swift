/// Why a device registration (an API body, a `devices` record) was refused: a stable code,
/// the field at fault and a human reason.
public struct DeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Sendable, Hashable {
        /// A field is missing, empty, too long or has the wrong shape.
        case invalidField = "INVALID_FIELD"
        /// The token is not a token of its platform.
        case invalidToken = "INVALID_TOKEN"
        /// The record does not decode.
        case undecodable = "UNDECODABLE"
    }

    public var code: Code
    /// The field at fault (`token`, `platform`, `environment`, `topic`, …), when one is.
    public var field: String?
    public var reason: String

    public init(_ code: Code, field: String?, _ reason: String) {
        self.code = code
        self.field = field
        self.reason = reason
    }

    public var description: String {
        if let field { return "\(code.rawValue) \(field): \(reason)" }
        return "\(code.rawValue): \(reason)"
    }
}
