/// One localized value for one key in one language, whatever file it came from.
///
/// - A `.strings` value is ``Body/text(_:)`` with no variables.
/// - A `.stringsdict` entry is ``Body/text(_:)`` holding `NSStringLocalizedFormatKey`,
///   with one ``PluralVariable`` per `%#@name@`.
/// - A String Catalog string unit is ``Body/text(_:)``, its `substitutions` the variables;
///   a catalog plural variation is ``Body/plural(_:)``, whose forms are complete format
///   strings (selected by the variable's ``PluralVariable/argumentNumber``).
public struct LocalizedEntry: Sendable, Hashable {
    /// The main text of an entry.
    public enum Body: Sendable, Hashable {
        /// A format string, possibly with `%#@name@` variables.
        case text(String)
        /// Complete format strings per plural category, chosen by one argument.
        case plural(PluralVariable)
    }

    /// The main text.
    public var body: Body
    /// The plural variables that `%#@name@` specifiers in the body (or in its forms) refer to.
    public var variables: [String: PluralVariable]

    /// Creates an entry.
    public init(body: Body, variables: [String: PluralVariable] = [:]) {
        self.body = body
        self.variables = variables
    }

    /// A plain text entry (a `.strings` value).
    public static func text(_ value: String) -> LocalizedEntry {
        LocalizedEntry(body: .text(value))
    }
}
