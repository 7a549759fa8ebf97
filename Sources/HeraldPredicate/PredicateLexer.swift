/// Splits an NSPredicate format string into tokens.
///
/// Works on Unicode scalars; positions are line/column in scalars. Substitution markers
/// (`%@`, `%K`, `%n$@`) become tokens here, so an argument can never change the structure
/// of the predicate: it is substituted into the syntax tree, never into the text.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The next sequential argument index for `%@`/`%K`.
    private var nextArgument = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Scans the whole text.
    /// - Throws: `RecordPredicateError` with the position of the first bad character.
    mutating func tokenize() throws(RecordPredicateError) -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var position: SourcePosition {
        SourcePosition(line: line, column: index - lineStart + 1, offset: index)
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let i = index + ahead
        return i < scalars.count ? scalars[i] : nil
    }

    /// The scalars from `start` to the current index as a string, its UTF-8 written in place
    /// (appending scalar by scalar to a `UnicodeScalarView` was most of the lexer's time when
    /// a match instance loads a million subscriptions).
    private func text(from start: Int) -> String {
        let slice = scalars[start..<min(index, scalars.count)]
        let length = slice.reduce(0) { $0 + UTF8.width($1) }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            for scalar in slice {
                UTF8.encode(scalar) { byte in
                    buffer[written] = byte
                    written += 1
                }
            }
            return written
        }
    }

    private mutating func skipWhitespace() {
        while let c = peek() {
            if c == "\n" {
                index += 1
                line += 1
                lineStart = index
            } else if c.isASCII ? Self.isASCIIWhitespace(c) : c.properties.isWhitespace {
                index += 1
            } else {
                return
            }
        }
    }

    private mutating func next() throws(RecordPredicateError) -> PredicateToken {
        skipWhitespace()
        let start = index
        let pos = position
        guard let c = peek() else { return PredicateToken(kind: .end, position: pos, text: "") }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, position: pos, text: text(from: start))
        }
        switch c {
        case "(": index += 1; return token(.leftParen)
        case ")": index += 1; return token(.rightParen)
        case "{": index += 1; return token(.leftBrace)
        case "}": index += 1; return token(.rightBrace)
        case "[": index += 1; return token(.leftBracket)
        case "]": index += 1; return token(.rightBracket)
        case ",": index += 1; return token(.comma)
        case "'", "\"": return try scanString(quote: c, start: start, at: pos)
        case "%": return try scanArgument(start: start, at: pos)
        case "#":
            index += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw RecordPredicateError(.unexpectedCharacter, "'#' must be followed by a key name", at: pos, text: "#")
            }
            let name = scanIdentifierBody()
            return token(.escapedIdentifier(name))
        case "-", "+":
            if let d = peek(1), Self.isDigit(d) || (d == "." && peek(2).map(Self.isDigit) == true) {
                return try scanNumber(start: start, at: pos)
            }
            throw RecordPredicateError(.unsupportedSyntax, "arithmetic is not supported; '\(c)' must start a number", at: pos, text: String(c))
        case ".":
            if let d = peek(1), Self.isDigit(d) { return try scanNumber(start: start, at: pos) }
            index += 1
            return token(.dot)
        default:
            break
        }
        if Self.isDigit(c) { return try scanNumber(start: start, at: pos) }
        // A bare word's text and a symbol's are their name: not made a second time.
        if Self.isIdentifierStart(c) {
            let name = scanIdentifierBody()
            return PredicateToken(kind: .identifier(name), position: pos, text: name)
        }
        if let symbol = scanSymbol() { return PredicateToken(kind: .symbol(symbol), position: pos, text: symbol) }
        throw RecordPredicateError(.unexpectedCharacter, "unexpected character", at: pos, text: String(c))
    }

    private mutating func scanSymbol() -> String? {
        // The two-character symbols, compared as scalars (no strings made to look them up).
        if let a = peek(), let b = peek(1) {
            switch (a, b) {
            case ("=", "="), ("!", "="), ("<", ">"), ("<", "="), ("=", "<"), (">", "="), ("=", ">"), ("&", "&"), ("|", "|"):
                index += 2
                return String(a) + String(b)
            default:
                break
            }
        }
        if let a = peek(), a == "=" || a == "<" || a == ">" || a == "!" {
            index += 1
            return String(a)
        }
        return nil
    }

    /// The ASCII scalars with Unicode's White_Space property (tab, line feed, vertical tab,
    /// form feed, carriage return, space), decided without the property tables: looking up
    /// `properties.isWhitespace` for every token's first character was a tenth of parsing
    /// when a match instance loads its subscriptions.
    static func isASCIIWhitespace(_ c: Unicode.Scalar) -> Bool { c == " " || (c.value >= 0x09 && c.value <= 0x0D) }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c == "$"
    }

    static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || isDigit(c)
    }

    /// Scans `[A-Za-z_$][A-Za-z0-9_$]*`, plus Objective-C selector pieces
    /// (`distanceToLocation:fromLocation:`) when a colon follows directly.
    private mutating func scanIdentifierBody() -> String {
        let start = index
        while let c = peek(), Self.isIdentifierPart(c) { index += 1 }
        while peek() == ":" {
            index += 1
            while let c = peek(), Self.isIdentifierPart(c) { index += 1 }
        }
        return text(from: start)
    }

    private mutating func scanString(quote: Unicode.Scalar, start: Int, at pos: SourcePosition) throws(RecordPredicateError) -> PredicateToken {
        index += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw RecordPredicateError(.unterminatedString, "string is not closed", at: pos, text: text(from: start))
            }
            index += 1
            if c == quote { break }
            if c == "\n" {
                line += 1
                lineStart = index
            }
            if c != "\\" {
                value.append(c)
                continue
            }
            let escapePos = SourcePosition(line: line, column: index - lineStart, offset: index - 1)
            guard let e = peek() else {
                throw RecordPredicateError(.unterminatedString, "string is not closed", at: pos, text: text(from: start))
            }
            index += 1
            switch e {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "\\", "'", "\"": value.append(e)
            case "u":
                var code: UInt32 = 0
                for _ in 0..<4 {
                    guard let h = peek(), let digit = Self.hexValue(h) else {
                        throw RecordPredicateError(.invalidEscape, "\\u must be followed by four hex digits", at: escapePos, text: text(from: escapePos.offset))
                    }
                    code = code * 16 + UInt32(digit)
                    index += 1
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw RecordPredicateError(.invalidEscape, "\\u escape is not a Unicode scalar", at: escapePos, text: text(from: escapePos.offset))
                }
                value.append(scalar)
            default:
                throw RecordPredicateError(.invalidEscape, "unknown escape in string", at: escapePos, text: "\\" + String(e))
            }
        }
        return PredicateToken(kind: .string(String(value)), position: pos, text: text(from: start))
    }

    /// The radix a `0x`/`0o`/`0b` prefix letter stands for.
    static func radix(_ c: Unicode.Scalar) -> Int? {
        switch c {
        case "x", "X": 16
        case "o", "O": 8
        case "b", "B": 2
        default: nil
        }
    }

    static func hexValue(_ c: Unicode.Scalar) -> Int? {
        switch c {
        case "0"..."9": Int(c.value - 48)
        case "a"..."f": Int(c.value - 87)
        case "A"..."F": Int(c.value - 55)
        default: nil
        }
    }

    private mutating func scanNumber(start: Int, at pos: SourcePosition) throws(RecordPredicateError) -> PredicateToken {
        var negative = false
        if peek() == "-" || peek() == "+" {
            negative = peek() == "-"
            index += 1
        }
        func bad(_ reason: String) -> RecordPredicateError {
            RecordPredicateError(.invalidNumber, reason, at: pos, text: text(from: start))
        }
        // 0x / 0o / 0b integers.
        if peek() == "0", let p = peek(1), let radix = Self.radix(p) {
            index += 2
            var magnitude: UInt64 = 0
            var digits = 0
            while let c = peek(), let d = Self.hexValue(c), d < radix {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
                let (s, o2) = m.addingReportingOverflow(UInt64(d))
                if o1 || o2 { while let c = peek(), Self.isIdentifierPart(c) { index += 1 }; throw bad("integer is out of range") }
                magnitude = s
                digits += 1
                index += 1
            }
            if digits == 0 { throw bad("number has no digits") }
            if let c = peek(), Self.isIdentifierPart(c) || c == "." { index += 1; throw bad("unexpected character in number") }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw bad("integer is out of range") }
                return PredicateToken(kind: .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)), position: pos, text: text(from: start))
            }
            guard magnitude <= UInt64(Int64.max) else { throw bad("integer is out of range") }
            return PredicateToken(kind: .integer(Int64(magnitude)), position: pos, text: text(from: start))
        }
        let digitsStart = index
        var isDouble = false
        while let c = peek(), Self.isDigit(c) { index += 1 }
        if peek() == ".", let d = peek(1), Self.isDigit(d) {
            isDouble = true
            index += 1
            while let c = peek(), Self.isDigit(c) { index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if let s = peek(1), s == "+" || s == "-" { ahead = 2 }
            if let d = peek(ahead), Self.isDigit(d) {
                isDouble = true
                index += ahead
                while let c = peek(), Self.isDigit(c) { index += 1 }
            } else {
                index += 1
                throw bad("exponent has no digits")
            }
        }
        if let c = peek(), Self.isIdentifierPart(c) { index += 1; throw bad("unexpected character in number") }
        let body = text(from: digitsStart)
        let literal = (negative ? "-" : "") + body
        if !isDouble, let i = Int64(literal) {
            return PredicateToken(kind: .integer(i), position: pos, text: text(from: start))
        }
        guard let d = Double(literal), d.isFinite else { throw bad("number is out of range") }
        return PredicateToken(kind: .double(d), position: pos, text: text(from: start))
    }

    /// `%@`, `%K`, `%n$@`, `%n$K`, and the numeric specifiers `%d %i %ld %lld %lu %f %lf`
    /// (treated like `%@`).
    private mutating func scanArgument(start: Int, at pos: SourcePosition) throws(RecordPredicateError) -> PredicateToken {
        index += 1
        var explicit: Int?
        if let c = peek(), Self.isDigit(c) {
            var n = 0
            while let c = peek(), Self.isDigit(c) {
                n = n > 1_000_000 ? n : n * 10 + Int(c.value - 48)
                index += 1
            }
            guard peek() == "$", n >= 1 else {
                throw RecordPredicateError(.unexpectedCharacter, "positional argument must be written %n$@ or %n$K with n ≥ 1", at: pos, text: text(from: start))
            }
            index += 1
            explicit = n - 1
        }
        func argumentIndex() -> Int {
            if let explicit { return explicit }
            defer { nextArgument += 1 }
            return nextArgument
        }
        guard let c = peek() else {
            throw RecordPredicateError(.unexpectedEnd, "incomplete substitution", at: pos, text: text(from: start))
        }
        switch c {
        case "@":
            index += 1
            return PredicateToken(kind: .valueArgument(argumentIndex()), position: pos, text: text(from: start))
        case "K":
            index += 1
            return PredicateToken(kind: .keyArgument(argumentIndex()), position: pos, text: text(from: start))
        default:
            for spec in ["lld", "llu", "ld", "lu", "lf", "d", "i", "u", "f"] {
                let scalarsOfSpec = Array(spec.unicodeScalars)
                if (0..<scalarsOfSpec.count).allSatisfy({ peek($0) == scalarsOfSpec[$0] }) {
                    index += scalarsOfSpec.count
                    return PredicateToken(kind: .valueArgument(argumentIndex()), position: pos, text: text(from: start))
                }
            }
            index += 1
            throw RecordPredicateError(.unexpectedCharacter, "unknown substitution; use %@ for values and %K for key names", at: pos, text: text(from: start))
        }
    }
}
