/// Where a syntax-tree node came from, carried without taking part in equality.
///
/// Two syntax trees are equal when they mean the same thing, wherever they were written:
/// every anchor equals every other anchor and hashes to nothing. This is what makes
/// `parse(render(tree)) == tree` hold although rendering moves things around.
public struct SourceAnchor: Sendable, Hashable, CustomStringConvertible {
    /// The position in the source text (or the `filterBy` clause number as line).
    public var position: SourcePosition

    /// Creates an anchor.
    public init(_ position: SourcePosition) {
        self.position = position
    }

    /// An anchor for nodes built in code rather than parsed.
    public static let none = SourceAnchor(.start)

    public static func == (lhs: SourceAnchor, rhs: SourceAnchor) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
    public var description: String { position.description }
}
