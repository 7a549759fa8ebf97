/// The result of a localization lookup: the formatted text and where it came from.
public struct LocalizedText: Sendable, Hashable {
    /// Which kind of file supplied the entry.
    public enum Source: String, Sendable, Hashable {
        /// A `.strings` file.
        case strings
        /// A `.stringsdict` file.
        case stringsdict
        /// A `.xcstrings` String Catalog.
        case stringCatalog = "xcstrings"
    }

    /// The formatted text. When the key was found nowhere, the key itself formatted with
    /// the arguments (Apple shows the key in that case too).
    public var text: String
    /// The key that was looked up.
    public var key: String
    /// The language whose entry was used, as the bundle spells it (`fr`, `zh-Hans`,
    /// `pt-PT`); `Base.lproj` and files outside any `.lproj` report the development
    /// language. `nil` when the key was not found.
    public var locale: String?
    /// The kind of file the entry came from; `nil` when the key was not found.
    public var source: Source?
    /// The plural category chosen for each variable that was rendered.
    public var pluralCategories: [String: PluralCategory]

    /// Whether an entry was found for the key.
    public var isFound: Bool { locale != nil }

    /// Creates a result.
    public init(text: String, key: String, locale: String?, source: Source?,
                pluralCategories: [String: PluralCategory] = [:]) {
        self.text = text
        self.key = key
        self.locale = locale
        self.source = source
        self.pluralCategories = pluralCategories
    }
}
