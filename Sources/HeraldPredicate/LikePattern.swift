/// A LIKE pattern: `*` matches any run of characters, `?` exactly one; `\*`, `\?` and `\\`
/// are literal. Matched over Characters (grapheme clusters) without backtracking blow-up.
struct LikePattern: Sendable {
    enum Element: Sendable, Equatable {
        case character(Character)
        case any
        case star
    }

    let elements: [Element]

    init(_ pattern: String) {
        var out: [Element] = []
        var escaped = false
        for c in pattern {
            if escaped {
                out.append(.character(c))
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "*" {
                if out.last != .star { out.append(.star) }
            } else if c == "?" {
                out.append(.any)
            } else {
                out.append(.character(c))
            }
        }
        if escaped { out.append(.character("\\")) }
        elements = out
        var bytes: [UInt8] = []
        for e in out {
            switch e {
            case .star: bytes.append(0xFF)
            case .any: bytes.append(0xFE)
            case .character(let c):
                guard c.utf8.count == 1, let b = c.utf8.first, b < 0x80 else {
                    ascii = nil
                    return
                }
                bytes.append(b)
            }
        }
        ascii = bytes
    }

    /// The pattern as ASCII bytes (`nil` when it has non-ASCII characters); `*` is 0xFF
    /// and `?` is 0xFE here, since neither byte occurs in ASCII.
    private let ascii: [UInt8]?

    /// Greedy matching with a single backtrack point (the last star): O(n·m) worst case.
    func matches(_ text: String) -> Bool {
        if let ascii, let result = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return Self.match(ascii, bytes, isStar: { $0 == 0xFF }, accepts: { $0 == 0xFE || $0 == $1 })
        }), let result {
            return result
        }
        return Self.match(elements, Array(text), isStar: { $0 == .star }, accepts: { element, character in
            switch element {
            case .any: true
            case .character(let c): c == character
            case .star: false
            }
        })
    }

    /// Greedy matching with a single backtrack point (the last star), over ASCII bytes or
    /// over Characters alike: `isStar` tells a star, `accepts` whether a pattern element
    /// takes one text element (a `?` takes any).
    private static func match<Pattern: RandomAccessCollection, Text: RandomAccessCollection>(
        _ pattern: Pattern, _ text: Text,
        isStar: (Pattern.Element) -> Bool, accepts: (Pattern.Element, Text.Element) -> Bool
    ) -> Bool where Pattern.Index == Int, Text.Index == Int {
        var p = pattern.startIndex
        var t = text.startIndex
        var starP = -1
        var starT = t
        while t < text.endIndex {
            if p < pattern.endIndex {
                let e = pattern[p]
                if isStar(e) {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if accepts(e, text[t]) {
                    p += 1
                    t += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starT += 1
            t = starT
        }
        while p < pattern.endIndex, isStar(pattern[p]) { p += 1 }
        return p == pattern.endIndex
    }
}
