/// Runs of characters (grapheme clusters), the keys of substring searches: a needle of
/// three to five characters is filed under one run of three, a longer one under one run of
/// six. A record offers every run of each length in use (one walk per start position reads
/// them all, `PostingHasher.forEachGram`). A run of three is shared by many unrelated
/// needles (at a million subscriptions, `w123456 and` and `w999456 and` share `456`), so
/// its postings grow with the index and bring candidates the predicate rejects; a run of
/// six keeps candidates near the matches at any size, for at most twice the lookups.
enum Grams {
    /// The lengths of runs a needle may be filed under, ascending.
    static let lengths = [3, 6]

    /// The run a substring search is filed under (the middle one of the longest length the
    /// needle allows), `nil` under three characters.
    static func selective(of needle: String) -> String? {
        let characters = Array(needle)
        guard let length = lengths.last(where: { $0 <= characters.count }) else { return nil }
        let start = (characters.count - length) / 2
        return String(characters[start..<start + length])
    }

    /// Calls `body` with every run of `length` characters of `text`, in order.
    static func forEach(in text: String, length: Int, _ body: (String) -> Void) {
        guard length > 0 else { return }
        if SimpleText.isSimple(text), let _ = text.utf8.withContiguousStorageIfAvailable({ bytes in
            guard bytes.count >= length else { return }
            for start in 0...(bytes.count - length) {
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), as: UTF8.self))
            }
        }) {
            return
        }
        let characters = Array(text)
        guard characters.count >= length else { return }
        for start in 0...(characters.count - length) { body(String(characters[start..<start + length])) }
    }
}

/// Strings whose characters are single ASCII bytes (ASCII without CR, since "\r\n" is one
/// character), which can be cut by byte offsets.
enum SimpleText {
    static func isSimple(_ text: String) -> Bool {
        // Over the contiguous bytes (native strings): iterating `utf8` byte by byte was a
        // twentieth of matching a change.
        var text = text
        return text.withUTF8(isSimple(bytes:))
    }

    /// Whether UTF-8 bytes are a simple text's.
    static func isSimple(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
        return true
    }

    /// The first `length` characters, `nil` when the text is shorter.
    static func prefix(_ text: String, _ length: Int) -> String? {
        cut(text, length, fromEnd: false)
    }

    /// The last `length` characters, `nil` when the text is shorter.
    static func suffix(_ text: String, _ length: Int) -> String? {
        cut(text, length, fromEnd: true)
    }

    /// `length` characters from the start or the end of `text`, `nil` when the text is
    /// shorter; by bytes when the text is simple.
    private static func cut(_ text: String, _ length: Int, fromEnd: Bool) -> String? {
        if isSimple(text) {
            let utf8 = text.utf8
            guard utf8.count >= length else { return nil }
            return String(Substring(fromEnd ? utf8.suffix(length) : utf8.prefix(length)))
        }
        let piece = fromEnd ? text.suffix(length) : text.prefix(length)
        return piece.count == length ? String(piece) : nil
    }
}
