/// Splits the decoded text of a `.strings` file into tokens, skipping white space and
/// comments and resolving escape sequences inside quoted strings.
///
/// Lexical rules (docs/cloudkit-behaviour.md §9, following CoreFoundation's old-style property-list reader):
/// - comments: `/* … */` (not nested) and `// …` to the end of the line; they may appear
///   anywhere between tokens;
/// - quoted strings: `"…"` or `'…'`, may span lines;
/// - unquoted tokens: one or more of `A–Z a–z 0–9 _ $ / : . -`; a `/` inside an unquoted
///   token belongs to it (`a//b` is one token), only a token *starting* with `//` or `/*`
///   is a comment;
/// - escapes: `\n \t \r \" \' \\ \a \b \f \v`; `\U` followed by exactly four hex digits
///   (a UTF-16 code unit: a high surrogate must be followed by `\U` and a low surrogate,
///   and the pair is combined into one scalar; a lone surrogate is an error); `\` followed
///   by one to three octal digits gives the scalar with that value (`\0` is NUL). Any other
///   escaped character stands for itself (`\q` is `q`, `\u00e9` is `u00e9`: only capital
///   `\U` introduces a code unit, as in CoreFoundation).
/// - line breaks: `\n`, `\r\n` and a lone `\r` each end a line. Lines and columns are
///   1-based; columns count Unicode scalars.
struct StringsScanner {
    /// A 1-based line and column.
    struct Position: Equatable, Sendable {
        var line: Int
        var column: Int
    }

    /// What a token is.
    enum Kind: Equatable, Sendable {
        /// A quoted string or an unquoted token, escapes already resolved.
        case text(String)
        case equals
        case semicolon
        case end
    }

    /// A token and where it starts and ends (`end` is the position just after it).
    struct Token: Equatable, Sendable {
        var kind: Kind
        var start: Position
        var end: Position
    }

    private let scalars: [Unicode.Scalar]
    private let file: String?
    private var index = 0
    private var position = Position(line: 1, column: 1)

    init(_ scalars: [Unicode.Scalar], file: String?) {
        self.scalars = scalars
        self.file = file
    }

    /// Returns the next token, `.end` at the end of the input (and ever after).
    mutating func next() throws -> Token {
        try skipSpaceAndComments()
        let start = position
        guard let scalar = peek() else { return Token(kind: .end, start: start, end: start) }
        switch scalar {
        case "=":
            advance()
            return Token(kind: .equals, start: start, end: position)
        case ";":
            advance()
            return Token(kind: .semicolon, start: start, end: position)
        case "\"", "'":
            let text = try quoted()
            return Token(kind: .text(text), start: start, end: position)
        default:
            guard Self.isUnquoted(scalar) else {
                throw error(.stringsSyntax, "unexpected character \(Self.describe(scalar))", at: start)
            }
            var text = String.UnicodeScalarView()
            while let next = peek(), Self.isUnquoted(next) {
                text.append(next)
                advance()
            }
            return Token(kind: .text(String(text)), start: start, end: position)
        }
    }

    // MARK: - Characters

    static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": true
        default: false
        }
    }

    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(scalar)'"
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let target = index + offset
        return target < scalars.count ? scalars[target] : nil
    }

    private mutating func advance() {
        guard index < scalars.count else { return }
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" || (scalar == "\r" && peek() != "\n") {
            position.line += 1
            position.column = 1
        } else {
            position.column += 1
        }
    }

    private func error(_ code: PayloadError.Code, _ reason: String, at place: Position) -> PayloadError {
        PayloadError(code, reason, at: .init(file: file, line: place.line, column: place.column))
    }

    // MARK: - White space and comments

    private mutating func skipSpaceAndComments() throws {
        while let scalar = peek() {
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                advance()
            } else if scalar == "/", peek(1) == "/" {
                while let next = peek(), next != "\n", next != "\r" { advance() }
            } else if scalar == "/", peek(1) == "*" {
                let start = position
                advance()
                advance()
                while true {
                    guard let next = peek() else {
                        throw error(.stringsSyntax, "unterminated comment (/* without */)", at: start)
                    }
                    if next == "*", peek(1) == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    // MARK: - Quoted strings

    private mutating func quoted() throws -> String {
        let start = position
        let quote = scalars[index]
        advance()
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw error(.stringsSyntax, "unterminated string (no closing \(quote))", at: start)
            }
            if scalar == quote {
                advance()
                return String(text)
            }
            if scalar == "\\" {
                let escapeStart = position
                advance()
                guard peek() != nil else {
                    throw error(.stringsSyntax, "unterminated string (no closing \(quote))", at: start)
                }
                text.append(try escape(at: escapeStart))
            } else {
                text.append(scalar)
                advance()
            }
        }
    }

    /// Reads the escape after a backslash (already consumed) at `escapeStart`.
    private mutating func escape(at escapeStart: Position) throws -> Unicode.Scalar {
        guard let scalar = peek() else { return "\\" }
        switch scalar {
        case "n": advance(); return "\n"
        case "t": advance(); return "\t"
        case "r": advance(); return "\r"
        case "a": advance(); return "\u{07}"
        case "b": advance(); return "\u{08}"
        case "f": advance(); return "\u{0C}"
        case "v": advance(); return "\u{0B}"
        case "0"..."7":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let digit = peek(), ("0"..."7").contains(digit) {
                value = value * 8 + (digit.value - 0x30)
                advance()
                digits += 1
            }
            // At most 0o777, always a valid scalar.
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        case "U":
            advance()
            let unit = try hexUnit(escapeStart)
            switch unit {
            case 0xD800...0xDBFF:
                let lowStart = position
                guard peek() == "\\", peek(1) == "U" else {
                    throw error(.stringsEscape,
                                "lone high surrogate \\U\(Self.hex(unit)) (must be followed by \\U and a low surrogate)",
                                at: escapeStart)
                }
                advance()
                advance()
                let low = try hexUnit(lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.stringsEscape,
                                "lone high surrogate \\U\(Self.hex(unit)) (followed by \\U\(Self.hex(low)), not a low surrogate)",
                                at: escapeStart)
                }
                let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(combined) ?? "\u{FFFD}"
            case 0xDC00...0xDFFF:
                throw error(.stringsEscape, "lone low surrogate \\U\(Self.hex(unit))", at: escapeStart)
            default:
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
        default:
            // \" \' \\ and any unknown escape: the character itself.
            advance()
            return scalar
        }
    }

    /// Reads exactly four hex digits after `\U`.
    private mutating func hexUnit(_ escapeStart: Position) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = peek(), let nibble = Self.hexValue(digit) else {
                throw error(.stringsEscape, "\\U must be followed by exactly 4 hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | nibble
            advance()
        }
        return value
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }

    private static func hex(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

extension String {
    /// Pads with leading zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
