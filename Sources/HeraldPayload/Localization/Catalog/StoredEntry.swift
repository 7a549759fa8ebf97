/// An entry as a catalog keeps it: where it came from and, for a plain text without
/// plural variables (most entries), its format already parsed.
///
/// A class (immutable): a lookup hands out one reference instead of copying the entry,
/// its variables and its parsed format for every notification.
final class StoredEntry: Sendable {
    let entry: LocalizedEntry
    let source: LocalizedText.Source
    /// The localization it came from as the bundle spells it (`iw`, `zh_CN`, `Base`,
    /// `""` for the root): of two spellings of one language, which one supplied it.
    let localization: String
    /// The parsed body of a `.text` entry without variables; `nil` otherwise.
    let plainFormat: FormatString?
    /// The arguments `plainFormat` uses: the highest argument index of its specifiers plus one.
    let plainArgumentCount: Int

    init(entry: LocalizedEntry, source: LocalizedText.Source, localization: String) {
        self.entry = entry
        self.source = source
        self.localization = localization
        if entry.variables.isEmpty, case .text(let text) = entry.body {
            let format = FormatString(text)
            var highest = 0
            for case .specifier(let specifier) in format.segments {
                highest = max(highest, specifier.argumentIndex() + 1)
            }
            plainFormat = format
            plainArgumentCount = highest
        } else {
            plainFormat = nil
            plainArgumentCount = 0
        }
    }
}
