/// Format strings parsed once, found again by their exact text.
///
/// Keys compare and hash as UTF-8 bytes, not as Unicode strings: the texts looked up
/// are the very strings the catalog stored, and canonical-equivalence hashing of
/// non-ASCII text costs more than the lookup it serves.
struct ParsedFormats: Sendable {
    private struct TextKey: Hashable, Sendable {
        let text: String

        static func == (lhs: TextKey, rhs: TextKey) -> Bool {
            var left = lhs.text
            var right = rhs.text
            return left.withUTF8 { left in right.withUTF8 { right in left.elementsEqual(right) } }
        }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private var formats: [TextKey: FormatString] = [:]

    /// No formats: every lookup misses and callers parse.
    init() {}

    /// The parsed form of `text`, if it was added.
    subscript(text: String) -> FormatString? {
        formats[TextKey(text: text)]
    }

    /// Parses and keeps `text`, unless already there.
    mutating func add(_ text: String) {
        let key = TextKey(text: text)
        if formats[key] == nil { formats[key] = FormatString(text) }
    }
}
