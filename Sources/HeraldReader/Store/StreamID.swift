/// One notification stream: a recipient's notifications in one container. Change
/// tokens, retention and sequences are all per stream.
public struct StreamID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The user the notifications are for.
    public var recipient: String
    /// The container identifier (`iCloud.com.example.notes`).
    public var container: String

    /// Creates a stream ID.
    public init(recipient: String, container: String) {
        self.recipient = recipient
        self.container = container
    }

    public var description: String { "\(recipient)@\(container)" }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        (lhs.recipient, lhs.container) < (rhs.recipient, rhs.container)
    }
}
