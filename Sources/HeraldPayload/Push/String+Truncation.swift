import HeraldModel

extension String {
    /// The first `maxCharacters` characters (grapheme clusters) of the string, or the
    /// string itself when it is not longer. Never splits an emoji, a flag or a base
    /// character from its combining marks, so the result is always valid UTF-8.
    func cut(toCharacters maxCharacters: Int) -> String {
        // A string of at most n UTF-8 bytes has at most n characters: skip counting.
        if utf8.count <= maxCharacters { return self }
        let limit = Swift.max(0, maxCharacters)
        guard let end = index(startIndex, offsetBy: limit, limitedBy: endIndex), end < endIndex else { return self }
        return String(self[..<end])
    }

    /// The longest prefix of whole characters followed by `ellipsis` whose JSON string
    /// encoding (quotes included) takes at most `budget` bytes, or `nil` when not even
    /// one character fits.
    ///
    /// Used when pruning shortens a text: the cut is grapheme-safe and counted in
    /// escaped UTF-8 bytes, exactly as `JSONWriter.string(_:)` will write it. Linear in
    /// bytes, not characters: the budget is found on the UTF-8 bytes, then only the last
    /// character before the cut is checked, since a character boundary inside a prefix
    /// (before its end) is a boundary of the whole string too.
    func shortened(toJSONBytes budget: Int, ellipsis: String = "…") -> String? {
        let available = budget - JSONWriter.stringSize(ellipsis)
        guard available > 0 else { return nil }
        // The longest prefix, ending on a scalar boundary, whose escaped bytes fit.
        var text = self
        let scalarEnd = text.withUTF8 { utf8 -> Int in
            // Plain bytes count one each: jump from one byte needing an escape to the next.
            var used = 0
            var index = 0
            while index < utf8.count {
                let special = JSONWriter.nextSpecial(in: utf8, from: index)
                if used + (special - index) > available {
                    index += available - used
                    break
                }
                used += special - index
                index = special
                guard index < utf8.count else { break }
                let size = JSONWriter.escapedSize(utf8[index])
                if used + size > available { break }
                used += size
                index += 1
            }
            guard index < utf8.count else { return utf8.count }
            // Back to the start of the scalar the budget ends in.
            var end = index
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            return end
        }
        guard scalarEnd > 0 else { return nil }
        let cut = utf8.index(startIndex, offsetBy: scalarEnd)
        let prefix = String(self[..<cut])
        // The prefix's last character may be the start of a longer one here (an emoji
        // sequence, a flag, a letter with more combining marks): keep it only if whole.
        let lastStart = prefix.utf8.distance(from: prefix.startIndex, to: prefix.index(before: prefix.endIndex))
        let lastStartHere = utf8.index(startIndex, offsetBy: lastStart)
        let wholeEnd = utf8.distance(from: startIndex, to: index(after: lastStartHere))
        let end = wholeEnd == scalarEnd ? scalarEnd : lastStart
        guard end > 0 else { return nil }
        return String(prefix[..<prefix.utf8.index(prefix.startIndex, offsetBy: end)]) + ellipsis
    }
}
