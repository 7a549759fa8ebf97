/// Runs of three characters (grapheme clusters), the keys of substring searches.
enum Trigrams {
    /// The trigram a substring search is filed under (the middle one), `nil` under three characters.
    static func selective(of needle: String) -> String? {
        let characters = Array(needle)
        guard characters.count >= 3 else { return nil }
        let start = (characters.count - 3) / 2
        return String(characters[start..<start + 3])
    }

    /// Calls `body` with every trigram of `text`.
    static func forEach(in text: String, _ body: (String) -> Void) {
        if SimpleText.isSimple(text), let _ = text.utf8.withContiguousStorageIfAvailable({ bytes in
            guard bytes.count >= 3 else { return }
            for start in 0...(bytes.count - 3) {
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + 3]), as: UTF8.self))
            }
        }) {
            return
        }
        var window: [Character] = []
        window.reserveCapacity(3)
        for character in text {
            if window.count == 3 { window.removeFirst() }
            window.append(character)
            if window.count == 3 { body(String(window)) }
        }
    }
}

/// Strings whose characters are single ASCII bytes (ASCII without CR, since "\r\n" is one
/// character), which can be cut by byte offsets.
enum SimpleText {
    static func isSimple(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
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
