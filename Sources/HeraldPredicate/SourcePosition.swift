/// A place in predicate source text: 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line. For the `filterBy` list form
/// there is no text: `line` is the 1-based clause number and `column` is 1.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line (or clause number for `filterBy`).
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// 0-based offset in Unicode scalars from the start of the text.
    public var offset: Int

    /// Creates a position.
    public init(line: Int, column: Int, offset: Int = 0) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The start of a text.
    public static let start = SourcePosition(line: 1, column: 1, offset: 0)

    public var description: String { "\(line):\(column)" }
}
