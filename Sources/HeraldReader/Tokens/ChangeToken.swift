/// An opaque resume position in one user's notification stream of one container: the
/// `serverChangeToken` of a fetch and the `id` of a server-sent event.
///
/// A token is a base64url string (no padding) that a `ChangeTokenSigner` issues and
/// verifies; it is bound to the recipient and container it was issued for. Clients must
/// not read meaning into it. Creating one from a string does not validate it: the store
/// verifies it when it is used. It encodes as a plain JSON string.
public struct ChangeToken: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token as sent over the wire.
    public var rawValue: String

    /// Wraps a string received from a client (unverified).
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
