import Foundation

extension FormatString {
    /// What a plural variable (`%#@name@`) is asked to render.
    public struct VariableRequest: Sendable, Hashable {
        /// The variable's name.
        public var name: String
        /// The 0-based index of the argument the specifier consumes.
        public var argumentIndex: Int
        /// That argument, or `nil` when too few arguments were given.
        public var argument: FormatArgument?
    }

    /// Substitutes the arguments. Never fails and never crashes.
    ///
    /// - Numbers are written with the POSIX locale: no grouping, `.` as decimal point,
    ///   ASCII digits (the `'` grouping flag is ignored). Flags, width and precision apply
    ///   as in C `printf` (width and precision are clamped to 1024).
    /// - Length modifiers are ignored: integers print from their full 64-bit value, so
    ///   `%d` with 5 000 000 000 prints `5000000000`, and `%u`/`%x`/`%o` print negative
    ///   integers as their unsigned 64-bit pattern.
    /// - Type mismatches print the argument's ``FormatArgument/text``: a string for `%d`,
    ///   a non-integral double for `%d`. Integers and timestamps are converted for `%f`,
    ///   `%e`, `%g`; an integral double for `%d` prints as that integer.
    /// - `%@` and `%s` print ``FormatArgument/text``; a precision truncates it to that
    ///   many characters and a width pads it with spaces (on the right with `-`).
    /// - `%c` prints the character with an integer's code point, or a string's first
    ///   character.
    /// - A specifier whose argument is missing prints `missingArgument` (empty by default).
    /// - Bad specifiers found by the lenient parse print as written.
    ///
    /// - Parameters:
    ///   - arguments: the values, argument 1 first.
    ///   - firstSequential: the 0-based index the first sequential specifier takes (used
    ///     for plural forms, whose sequential specifiers start at their variable's argument).
    ///   - missingArgument: what to print for a specifier without an argument.
    ///   - variable: renders a `%#@name@` plural variable; by default it prints
    ///     `missingArgument`.
    public func render(
        _ arguments: [FormatArgument],
        firstSequential: Int = 0,
        missingArgument: String = "",
        variable: (VariableRequest) -> String = { _ in "" }
    ) -> String {
        // A text without specifiers (a title such as "Note") is its one literal: no new string.
        if segments.count == 1, case .literal(let text) = segments[0] { return text }
        var out = ""
        // Room for the literals and short arguments at once, instead of growing the string
        // as the parts are appended (a typical body grew two or three times).
        out.reserveCapacity(text.utf8.count + 16 * segments.count)
        for segment in segments {
            switch segment {
            case .literal(let text):
                out += text
            case .specifier(let specifier):
                let index = specifier.argumentIndex(firstSequential: firstSequential)
                let argument = arguments.indices.contains(index) ? arguments[index] : nil
                if case .pluralVariable(let name) = specifier.conversion {
                    out += variable(VariableRequest(name: name, argumentIndex: index, argument: argument))
                } else if let argument {
                    out += Self.format(argument, with: specifier)
                } else {
                    out += missingArgument
                }
            }
        }
        return out
    }

    /// Formats one argument for one (non-variable) specifier.
    static func format(_ argument: FormatArgument, with specifier: FormatSpecifier) -> String {
        switch specifier.conversion {
        case .object, .cString, .pluralVariable:
            return pad(truncate(argument.text, to: specifier.precision), specifier)
        case .character:
            let text: String
            switch argument {
            case .integer(let value):
                text = UInt32(exactly: value).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                    ?? argument.text
            case .string(let value):
                text = value.first.map { String($0) } ?? ""
            case .double, .timestamp:
                text = argument.text
            }
            return pad(text, specifier)
        case .signedDecimal, .unsignedDecimal, .hexadecimal, .octal:
            let value: Int64
            switch argument {
            case .integer(let integer), .timestamp(let integer):
                value = integer
            case .double(let double):
                guard double == double.rounded(), let integer = Int64(exactly: double) else {
                    return pad(argument.text, specifier)
                }
                value = integer
            case .string:
                return pad(argument.text, specifier)
            }
            if specifier.flags.isEmpty, specifier.width == nil, specifier.precision == nil {
                // What `%lld` / `%llu` print, without the cost of `String(format:)`.
                switch specifier.conversion {
                case .signedDecimal: return String(value)
                case .unsignedDecimal: return String(UInt64(bitPattern: value))
                default: break
                }
            }
            let format = cFormat(specifier, length: "ll")
            if specifier.conversion == .signedDecimal {
                return String(format: format, value)
            }
            return String(format: format, UInt64(bitPattern: value))
        case .fixed, .exponent, .general:
            let value: Double
            switch argument {
            case .integer(let integer), .timestamp(let integer): value = Double(integer)
            case .double(let double): value = double
            case .string: return pad(argument.text, specifier)
            }
            return String(format: cFormat(specifier, length: ""), value)
        }
    }

    /// The C format for a numeric specifier, without position, with our own length.
    private static func cFormat(_ specifier: FormatSpecifier, length: String) -> String {
        var format = "%" + specifier.flags.filter { $0 != "'" }
        if let width = specifier.width { format += String(width) }
        if let precision = specifier.precision { format += "." + String(precision) }
        let conversion: String
        switch specifier.conversion {
        case .signedDecimal: conversion = "d"
        case .unsignedDecimal: conversion = "u"
        case .hexadecimal(let uppercase): conversion = uppercase ? "X" : "x"
        case .octal: conversion = "o"
        case .fixed: conversion = "f"
        case .exponent(let uppercase): conversion = uppercase ? "E" : "e"
        case .general(let uppercase): conversion = uppercase ? "G" : "g"
        case .object, .cString, .character, .pluralVariable: conversion = "s"
        }
        return format + length + conversion
    }

    private static func truncate(_ text: String, to precision: Int?) -> String {
        guard let precision, text.count > precision else { return text }
        return String(text.prefix(precision))
    }

    private static func pad(_ text: String, _ specifier: FormatSpecifier) -> String {
        guard let width = specifier.width, text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return specifier.flags.contains("-") ? text + padding : padding + text
    }
}
