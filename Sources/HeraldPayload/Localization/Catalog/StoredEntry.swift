/// An entry as a catalog keeps it: where it came from and, for a plain text without
/// plural variables (most entries), its format already parsed.
struct StoredEntry: Sendable {
    var entry: LocalizedEntry
    var source: LocalizedText.Source
    /// The localization it came from as the bundle spells it (`iw`, `zh_CN`, `Base`,
    /// `""` for the root): of two spellings of one language, which one supplied it.
    var localization: String
    /// The parsed body of a `.text` entry without variables; `nil` otherwise.
    var plainFormat: FormatString?

    init(entry: LocalizedEntry, source: LocalizedText.Source, localization: String) {
        self.entry = entry
        self.source = source
        self.localization = localization
        if entry.variables.isEmpty, case .text(let text) = entry.body {
            plainFormat = FormatString(text)
        }
    }
}
