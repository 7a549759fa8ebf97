/// Splits a printf-style format string into literal text and specifiers, collecting every
/// problem instead of stopping at the first one.
///
/// Syntax of a specifier: `%` [`n$`] [flags `-+ 0#'`] [width] [`.` precision] [length
/// `hh h l ll q L z t j`] conversion, where conversion is one of `@ s c d i u x X o f F e E
/// g G`, or `#@name@` for a plural variable (the `#` is read as part of the conversion
/// here, so `%#@x@` is a variable while `%#x` is the alternate-form flag on `%x`). `%%` is
/// a literal percent sign.
///
/// A bad specifier (`%q`, `%` at the end, `%0$@`, `*` widths, an unterminated
/// `%#@name`) is recorded as a problem and kept as literal text, so that rendering a
/// format string that failed validation still never crashes and shows what was written.
struct FormatParser {
    /// Widths and precisions above this are problems (and clamped when rendering).
    static let maximumWidth = 1024

    private let characters: [Character]
    private var index = 0
    private var literal = ""
    private var sequence = 0
    private(set) var segments: [FormatString.Segment] = []
    private(set) var problems: [PayloadError] = []
    private var sawPositional = false
    private var sawSequential = false

    init(_ text: String) {
        characters = Array(text)
    }

    /// Parses the whole string; read `segments` and `problems` afterwards.
    mutating func parse() {
        while index < characters.count {
            let character = characters[index]
            if character != "%" {
                literal.append(character)
                index += 1
                continue
            }
            if index + 1 < characters.count, characters[index + 1] == "%" {
                literal.append("%")
                index += 2
                continue
            }
            let start = index
            if let specifier = specifier() {
                flushLiteral()
                segments.append(.specifier(specifier))
            } else {
                // Keep what was written; resume after the `%` so nothing is swallowed.
                literal.append(contentsOf: characters[start..<max(index, start + 1)])
                index = max(index, start + 1)
            }
        }
        flushLiteral()
        if sawPositional && sawSequential {
            problems.append(PayloadError(
                .formatString,
                "mixes positional (%n$) and sequential specifiers; sequential ones then take arguments 1, 2, … regardless of the positional ones (CoreFoundation behaviour), which is rarely what was meant"))
        }
    }

    private mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        segments.append(.literal(literal))
        literal = ""
    }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func problem(_ reason: String, column: Int) {
        problems.append(PayloadError(.formatString, reason, at: .init(column: column)))
    }

    private mutating func digits() -> Int? {
        var value: Int?
        while let character = peek(), let digit = character.wholeNumberValue, character.isASCII {
            value = min((value ?? 0) * 10 + digit, 1_000_000_000)
            index += 1
        }
        return value
    }

    /// Parses one specifier at `index` (on the `%`). Returns `nil` after recording a
    /// problem; `index` is then where the bad part ended.
    private mutating func specifier() -> FormatSpecifier? {
        let start = index
        let column = start + 1
        index += 1
        func written() -> String { String(characters[start..<min(index, characters.count)]) }

        // Position: digits followed by `$`.
        var position: Int?
        let afterPercent = index
        if let number = digits() {
            if peek() == "$" {
                index += 1
                guard number >= 1 else {
                    problem("argument positions start at 1 in '\(written())'", column: column)
                    return nil
                }
                position = number
            } else {
                index = afterPercent
            }
        }

        // `#@name@` plural variable (directly after `%` or `%n$`).
        if peek() == "#", peek(1) == "@" {
            index += 2
            var name = ""
            while let character = peek(), character != "@" {
                name.append(character)
                index += 1
            }
            guard peek() == "@" else {
                problem("unterminated plural variable '\(written())' (missing the closing '@')", column: column)
                return nil
            }
            index += 1
            guard !name.isEmpty else {
                problem("empty plural variable name in '\(written())'", column: column)
                return nil
            }
            return make(position: position, flags: "", width: nil, precision: nil, length: "",
                        conversion: .pluralVariable(name), source: written(), column: column)
        }

        var flags = ""
        while let character = peek(), "-+ 0#'".contains(character) {
            flags.append(character)
            index += 1
        }
        if peek() == "*" {
            index += 1
            problem("'*' widths and precisions taken from arguments are not supported in '\(written())'", column: column)
            return nil
        }
        let width = digits()
        var precision: Int?
        if peek() == "." {
            index += 1
            if peek() == "*" {
                index += 1
                problem("'*' widths and precisions taken from arguments are not supported in '\(written())'", column: column)
                return nil
            }
            precision = digits() ?? 0
        }
        if let width, width > Self.maximumWidth {
            problem("width \(width) is larger than \(Self.maximumWidth) in '\(written())'", column: column)
        }
        if let precision, precision > Self.maximumWidth {
            problem("precision \(precision) is larger than \(Self.maximumWidth) in '\(written())'", column: column)
        }
        var length = ""
        for candidate in ["hh", "ll", "h", "l", "q", "L", "z", "t", "j"] {
            let spelled = Array(candidate)
            if index + spelled.count <= characters.count,
               Array(characters[index..<(index + spelled.count)]) == spelled {
                length = candidate
                index += spelled.count
                break
            }
        }
        guard let character = peek() else {
            if length.isEmpty {
                problem("incomplete format specifier '\(written())' at the end of the string", column: column)
            } else {
                problem(Self.lengthWithoutConversion(written()), column: column)
            }
            return nil
        }
        index += 1
        let conversion: FormatSpecifier.Conversion
        switch character {
        case "@": conversion = .object
        case "s": conversion = .cString
        case "c": conversion = .character
        case "d", "i": conversion = .signedDecimal
        case "u": conversion = .unsignedDecimal
        case "x": conversion = .hexadecimal(uppercase: false)
        case "X": conversion = .hexadecimal(uppercase: true)
        case "o": conversion = .octal
        case "f", "F": conversion = .fixed
        case "e": conversion = .exponent(uppercase: false)
        case "E": conversion = .exponent(uppercase: true)
        case "g": conversion = .general(uppercase: false)
        case "G": conversion = .general(uppercase: true)
        default:
            if !length.isEmpty {
                // `%q!`: `q` is a length (Apple's quad), the `!` is not part of the specifier.
                index -= 1
                problem(Self.lengthWithoutConversion(written()), column: column)
            } else {
                problem("unknown format specifier '\(written())'", column: column)
            }
            return nil
        }
        return make(position: position, flags: flags, width: width, precision: precision, length: length,
                    conversion: conversion, source: written(), column: column)
    }

    private static func lengthWithoutConversion(_ written: String) -> String {
        "unknown format specifier '\(written)' (a length modifier must be followed by d, i, u, x, X, o, f, e, g, c, s or @)"
    }

    private mutating func make(
        position: Int?, flags: String, width: Int?, precision: Int?, length: String,
        conversion: FormatSpecifier.Conversion, source: String, column: Int
    ) -> FormatSpecifier {
        let specifier = FormatSpecifier(
            position: position, sequence: position == nil ? sequence : 0, flags: flags,
            width: width.map { min($0, Self.maximumWidth) }, precision: precision.map { min($0, Self.maximumWidth) },
            length: length, conversion: conversion, source: source, column: column)
        if position == nil {
            sequence += 1
            sawSequential = true
        } else {
            sawPositional = true
        }
        return specifier
    }
}
