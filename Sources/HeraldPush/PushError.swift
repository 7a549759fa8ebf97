/// The one error type of `HeraldPush`: a push that cannot be built as the provider requires
/// (`providerRule`, with the provider's status and name for the rule), or a device
/// registration (an API body, a `devices` record) that is refused (a stable code and the
/// field at fault).
public struct PushError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Sendable, Hashable {
        /// A push breaks one of the provider's rules (`APNsRules`, FCM's message shape).
        case providerRule = "PROVIDER_RULE"
        /// A registration's field is missing, empty, too long or has the wrong shape.
        case invalidField = "INVALID_FIELD"
        /// A registration's token is not a token of its platform.
        case invalidToken = "INVALID_TOKEN"
        /// A `devices` record does not decode.
        case undecodable = "UNDECODABLE"
    }

    public var code: Code
    /// The HTTP status the provider answers such a request with (400, 413, …); 400 for a
    /// refused registration.
    public var status: Int
    /// For a push, the provider's own name for the rule broken (`BadCollapseId`,
    /// `BadPriority`, …), so a push refused before sending reads like one refused by the
    /// provider; for a registration, what is wrong.
    public var reason: String
    /// The registration's field at fault (`token`, `platform`, `environment`, `topic`, …),
    /// when one is; `nil` for a push.
    public var field: String?
    /// What is wrong, for humans.
    public var detail: String

    /// A push that breaks a provider rule.
    public init(status: Int, reason: String, detail: String) {
        self.code = .providerRule
        self.status = status
        self.reason = reason
        self.field = nil
        self.detail = detail
    }

    /// A refused device registration.
    public init(_ code: Code, field: String?, _ reason: String) {
        self.code = code
        self.status = 400
        self.reason = reason
        self.field = field
        self.detail = reason
    }

    /// `status reason: detail` for a push; `CODE field: reason` for a registration.
    public var description: String {
        guard code != .providerRule else { return "\(status) \(reason): \(detail)" }
        if let field { return "\(code.rawValue) \(field): \(reason)" }
        return "\(code.rawValue): \(reason)"
    }
}
