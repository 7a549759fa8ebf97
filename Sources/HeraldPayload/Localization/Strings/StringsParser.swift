/// Builds the key → value table of a `.strings` file from the scanner's tokens.
///
/// Grammar: `file := entry*`, `entry := text ( "=" text )? ";"` where `text` is a quoted
/// string or an unquoted token. `"key";` alone means the value is the key. A later entry
/// for the same key replaces an earlier one (last wins, as in CoreFoundation).
///
/// Errors name the line and column *where the missing piece was expected*: for a missing
/// `;` that is just after the value, for a missing value just after the `=`, for a missing
/// `=` just after the key; the reason says what was found instead.
struct StringsParser {
    private var scanner: StringsScanner
    private let file: String?

    init(_ scalars: [Unicode.Scalar], file: String?) {
        self.scanner = StringsScanner(scalars, file: file)
        self.file = file
    }

    /// Parses the whole input.
    mutating func parse() throws -> [String: String] {
        var table: [String: String] = [:]
        while true {
            let keyToken = try scanner.next()
            let key: String
            switch keyToken.kind {
            case .end:
                return table
            case .text(let text):
                key = text
            case .equals, .semicolon:
                throw error("expected a key, found \(Self.describe(keyToken.kind))", at: keyToken.start)
            }
            let separator = try scanner.next()
            switch separator.kind {
            case .semicolon:
                table[key] = key
            case .equals:
                let valueToken = try scanner.next()
                guard case .text(let value) = valueToken.kind else {
                    throw error("missing value after '=' for key \"\(key)\", found \(Self.describe(valueToken.kind))",
                                at: separator.end, found: valueToken.start)
                }
                let terminator = try scanner.next()
                guard terminator.kind == .semicolon else {
                    throw error("missing ';' after the value of key \"\(key)\", found \(Self.describe(terminator.kind))",
                                at: valueToken.end, found: terminator.start)
                }
                table[key] = value
            case .text, .end:
                throw error("missing '=' or ';' after key \"\(key)\", found \(Self.describe(separator.kind))",
                            at: keyToken.end, found: separator.start)
            }
        }
    }

    private static func describe(_ kind: StringsScanner.Kind) -> String {
        switch kind {
        case .text(let text): "\"\(text.count > 20 ? String(text.prefix(20)) + "…" : text)\""
        case .equals: "'='"
        case .semicolon: "';'"
        case .end: "the end of the file"
        }
    }

    private func error(_ reason: String, at place: StringsScanner.Position,
                       found: StringsScanner.Position? = nil) -> PayloadError {
        var reason = reason
        if let found, found.line != place.line, found != place { reason += " on line \(found.line)" }
        return PayloadError(.stringsSyntax, reason,
                            at: .init(file: file, line: place.line, column: place.column))
    }
}
