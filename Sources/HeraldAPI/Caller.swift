import Foundation

/// Who asks, as a verified bearer token says.
public struct Caller: Sendable, Hashable {
    /// The user record name (`sub`).
    public var user: String
    /// The container the token is for (`cid`).
    public var container: String
    /// When the token expires (`exp`).
    public var expiresAt: Date
    // Only the authenticator makes callers: the memberwise initializer stays internal.
}
