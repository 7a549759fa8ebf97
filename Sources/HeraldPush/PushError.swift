/// The one error type of `HeraldPush`: a push that cannot be built as the provider requires.
public struct PushError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status the provider answers such a request with (400, 413, …).
    public var status: Int
    /// The provider's own name for the rule broken (`BadCollapseId`, `BadPriority`, …), so a
    /// push refused before sending reads like one refused by the provider.
    public var reason: String
    /// What is wrong, for humans.
    public var detail: String

    /// Creates an error.
    public init(status: Int, reason: String, detail: String) {
        self.status = status
        self.reason = reason
        self.detail = detail
    }

    /// `status reason: detail`.
    public var description: String { "\(status) \(reason): \(detail)" }
}
