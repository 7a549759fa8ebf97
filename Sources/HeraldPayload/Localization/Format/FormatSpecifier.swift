/// One conversion in a format string, e.g. `%2$@`, `%-5.2f`, `%lld`, `%#@files@`.
public struct FormatSpecifier: Sendable, Hashable {
    /// What the conversion prints. A closed set: anything else is a validation problem.
    public enum Conversion: Sendable, Hashable {
        /// `%@`: any argument as text.
        case object
        /// `%s`: a string (treated like `%@`).
        case cString
        /// `%c`: one character (an integer code point, or the first character of a string).
        case character
        /// `%d`, `%i`: a signed decimal integer.
        case signedDecimal
        /// `%u`: an unsigned decimal integer (negative values print as their 64-bit pattern).
        case unsignedDecimal
        /// `%x`, `%X`: hexadecimal (`uppercase` for `%X`).
        case hexadecimal(uppercase: Bool)
        /// `%o`: octal.
        case octal
        /// `%f`, `%F`: fixed-point.
        case fixed
        /// `%e`, `%E`: exponent notation.
        case exponent(uppercase: Bool)
        /// `%g`, `%G`: the shorter of fixed and exponent.
        case general(uppercase: Bool)
        /// `%#@name@`: a plural variable defined by a stringsdict entry or catalog substitution.
        case pluralVariable(String)

        /// The conversion character(s) as written after flags, width, precision and length.
        public var spelling: String {
            switch self {
            case .object: "@"
            case .cString: "s"
            case .character: "c"
            case .signedDecimal: "d"
            case .unsignedDecimal: "u"
            case .hexadecimal(let uppercase): uppercase ? "X" : "x"
            case .octal: "o"
            case .fixed: "f"
            case .exponent(let uppercase): uppercase ? "E" : "e"
            case .general(let uppercase): uppercase ? "G" : "g"
            case .pluralVariable(let name): "#@\(name)@"
            }
        }

        /// Whether the conversion prints a number.
        public var isNumeric: Bool {
            switch self {
            case .signedDecimal, .unsignedDecimal, .hexadecimal, .octal, .fixed, .exponent, .general: true
            case .object, .cString, .character, .pluralVariable: false
            }
        }
    }

    /// The explicit 1-based argument position (`%2$@` → 2), or `nil` for sequential ones.
    public var position: Int?
    /// For a sequential specifier, how many sequential specifiers come before it (0-based).
    /// Positional specifiers do not advance this count (CoreFoundation's rule).
    public var sequence: Int
    /// Flags among `-`, `+`, space, `0`, `#`, `'`, in the order written.
    public var flags: String
    /// Minimum field width.
    public var width: Int?
    /// Precision (`.2` → 2; a bare `.` → 0).
    public var precision: Int?
    /// Length modifier as written (`""`, `h`, `hh`, `l`, `ll`, `q`, `L`, `z`, `t`, `j`).
    /// Accepted and ignored: integers are always printed from their full 64-bit value.
    public var length: String
    /// The conversion.
    public var conversion: Conversion
    /// The specifier exactly as written, from `%` to the conversion character.
    public var source: String
    /// The 1-based column (in characters) of the `%` in the format string.
    public var column: Int

    /// The 0-based index of the argument this specifier consumes, numbering sequential
    /// specifiers from `firstSequential`.
    public func argumentIndex(firstSequential: Int = 0) -> Int {
        if let position { return position - 1 }
        return firstSequential + sequence
    }
}
