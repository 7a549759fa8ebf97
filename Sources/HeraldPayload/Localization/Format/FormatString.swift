/// A parsed printf-style format string (`"%1$@ sent %#@photos@"`), as used by
/// localization entries and `*LocalizationArgs` (docs/cloudkit-behaviour.md §4, §9).
///
/// Two ways to make one:
/// - ``init(_:)`` never fails: bad specifiers are kept as literal text and listed in
///   ``problems``. Used at send time, where a notification must still go out.
/// - ``init(validating:argumentCount:)`` throws the first problem. Used at subscription
///   time, to reject a bad format before it is stored.
///
/// Argument numbering follows CoreFoundation: `%n$…` takes argument *n* (1-based);
/// sequential specifiers take arguments 1, 2, 3, … counting **only the sequential
/// specifiers**, whether or not positional ones appear too (`"%2$@ %@"` prints argument
/// 2 then argument 1). Mixing both kinds is listed as a problem because it is rarely
/// intended, but it renders as described. Rendering is done by ``render(_:missingArgument:variable:)``.
public struct FormatString: Sendable, Hashable {
    /// A piece of a format string.
    public enum Segment: Sendable, Hashable {
        /// Literal text (`%%` already turned into `%`).
        case literal(String)
        /// A conversion.
        case specifier(FormatSpecifier)
    }

    /// The text as written.
    public let text: String
    /// Literal text and specifiers, in order.
    public let segments: [Segment]
    /// Problems found while parsing (unknown specifiers, `%` at the end, `%0$@`, `*`
    /// widths, mixed positional and sequential specifiers), each with the column of its `%`.
    public let problems: [PayloadError]

    /// Parses leniently; never fails. See ``problems``.
    public init(_ text: String) {
        var parser = FormatParser(text)
        parser.parse()
        self.text = text
        self.segments = parser.segments
        self.problems = parser.problems
    }

    /// Parses and validates.
    ///
    /// - Parameters:
    ///   - text: the format string.
    ///   - argumentCount: when given, how many arguments will be supplied; referring to an
    ///     argument beyond it is a problem. Supplying more arguments than are used is not
    ///     (a translation may leave one out).
    /// - Throws: the first problem, a ``PayloadError`` with code `format.invalid` whose
    ///   location has the column of the offending `%`.
    public init(validating text: String, argumentCount: Int? = nil) throws {
        self.init(text)
        let all = argumentCount.map { problems(argumentCount: $0) } ?? problems
        if let first = all.first { throw first }
    }

    /// The specifiers, in order of appearance.
    public var specifiers: [FormatSpecifier] {
        segments.compactMap { segment in
            if case .specifier(let specifier) = segment { return specifier }
            return nil
        }
    }

    /// How many arguments the string refers to: the highest argument number used (so
    /// `"%3$@"` needs 3), 0 for none.
    public var argumentCount: Int {
        specifiers.map { $0.argumentIndex() + 1 }.max() ?? 0
    }

    /// The names of the plural variables (`%#@name@`), in order of first appearance.
    public var variableNames: [String] {
        var names: [String] = []
        for case .pluralVariable(let name) in specifiers.map(\.conversion) where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// ``problems`` plus one problem per specifier that refers to an argument beyond
    /// `argumentCount`.
    public func problems(argumentCount: Int) -> [PayloadError] {
        var found = problems
        for specifier in specifiers {
            let number = specifier.argumentIndex() + 1
            if number > argumentCount {
                let given = argumentCount == 1 ? "1 argument is" : "\(argumentCount) arguments are"
                found.append(PayloadError(
                    .formatString,
                    "'\(specifier.source)' refers to argument \(number) but only \(given) given",
                    at: .init(column: specifier.column)))
            }
        }
        return found
    }
}
