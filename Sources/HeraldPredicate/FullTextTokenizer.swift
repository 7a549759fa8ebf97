import Foundation

/// CloudKit-style full-text tokenization: split on anything that is not a letter, digit
/// or combining mark; fold case and diacritics; drop CloudKit's stop words.
enum FullTextTokenizer {
    /// The words CloudKit's full-text search ignores (docs/cloudkit-behaviour.md §2).
    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is",
        "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
        "these", "they", "this", "to", "was", "will", "with",
    ]

    /// All search tokens of `text`, in order, repeats kept.
    static func tokens(of text: String) -> [String] {
        var result: [String] = []
        forEachToken(in: text) { result.append($0); return false }
        return result
    }

    /// Calls `body` with each folded, non-stop-word token until it returns `true`.
    /// - Returns: whether `body` returned `true`.
    @discardableResult
    static func forEachToken(in text: String, _ body: (String) -> Bool) -> Bool {
        if let done = forEachASCIIToken(in: text, body) { return done }
        var current = String.UnicodeScalarView()
        var ascii = true
        func flush() -> Bool {
            guard !current.isEmpty else { return false }
            defer {
                current.removeAll(keepingCapacity: true)
                ascii = true
            }
            let token = fold(String(current), ascii: ascii)
            if token.isEmpty || stopWords.contains(token) { return false }
            return body(token)
        }
        for scalar in text.unicodeScalars {
            if isTokenScalar(scalar) {
                current.append(scalar)
                if !scalar.isASCII { ascii = false }
            } else if flush() {
                return true
            }
        }
        return flush()
    }

    /// The ASCII fast path of `forEachToken`: scans UTF-8 bytes and lower-cases them into
    /// small strings; `nil` (having called `body` for nothing) when the text is not ASCII.
    private static func forEachASCIIToken(in text: String, _ body: (String) -> Bool) -> Bool? {
        let isASCII = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
        guard isASCII == true else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            let count = bytes.count
            for i in 0...count {
                let byte: UInt8 = i < count ? bytes[i] : 0x20
                let isAlnum = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                if isAlnum { continue }
                let length = i - start
                if length > 0 {
                    let token = String(unsafeUninitializedCapacity: length) { out in
                        for k in 0..<length {
                            let b = bytes[start + k]
                            out[k] = (b >= 65 && b <= 90) ? b + 32 : b
                        }
                        return length
                    }
                    if !stopWords.contains(token), body(token) { return true }
                }
                start = i + 1
            }
            return false
        }
    }

    /// Whether `text` has any token in `wanted` (folded tokens without stop words).
    ///
    /// Fast path for ASCII text: scans UTF-8 bytes, lower-cases in a stack buffer and only
    /// builds a (small, inline) string for tokens whose length some wanted token has.
    static func containsAny(of wanted: Set<String>, lengths: Set<Int>, maxLength: Int, in text: String) -> Bool {
        let fast: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var start = 0
            var i = 0
            let count = bytes.count
            while i <= count {
                let byte: UInt8 = i < count ? bytes[i] : 0x20
                if byte >= 0x80 { return nil }
                let isAlnum = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                if !isAlnum {
                    let length = i - start
                    if length > 0, length <= maxLength, lengths.contains(length) {
                        let token = String(unsafeUninitializedCapacity: length) { out in
                            for k in 0..<length {
                                let b = bytes[start + k]
                                out[k] = (b >= 65 && b <= 90) ? b + 32 : b
                            }
                            return length
                        }
                        if wanted.contains(token) { return true }
                    }
                    start = i + 1
                }
                i += 1
            }
            return false
        } ?? nil
        if let fast { return fast }
        return forEachToken(in: text) { wanted.contains($0) }
    }

    static func isTokenScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 48 && v <= 57) || (v >= 65 && v <= 90) || (v >= 97 && v <= 122)
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Lower-cases and strips diacritics; cheap for ASCII.
    static func fold(_ token: String, ascii: Bool) -> String {
        if ascii { return token.lowercased() }
        return token.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
