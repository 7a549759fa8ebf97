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
            bytes.allSatisfy { $0 < 0x80 } ? Self.match(ascii, bytes, star: 0xFF, one: 0xFE) : nil
        }), let result {
            return result
        }
        let chars = Array(text)
        return Self.match(elements, chars)
    }

    private static func match(_ pattern: [UInt8], _ text: UnsafeBufferPointer<UInt8>, star: UInt8, one: UInt8) -> Bool {
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < text.count {
            if p < pattern.count {
                let e = pattern[p]
                if e == star {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if e == one || e == text[t] {
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
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    private static func match(_ elements: [Element], _ chars: [Character]) -> Bool {
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < chars.count {
            if p < elements.count {
                switch elements[p] {
                case .star:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .any:
                    p += 1
                    t += 1
                    continue
                case .character(let c) where c == chars[t]:
                    p += 1
                    t += 1
                    continue
                default:
                    break
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starT += 1
            t = starT
        }
        while p < elements.count, elements[p] == .star { p += 1 }
        return p == elements.count
    }
}
