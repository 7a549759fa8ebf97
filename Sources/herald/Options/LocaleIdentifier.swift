/// The shape of a locale identifier a command accepts: a BCP 47 language tag's language,
/// optional script and optional region (`fr`, `fr-CA`, `zh-Hant-TW`, `es-419`), with `-`
/// or Apple's `_` between them.
enum LocaleIdentifier {
    /// Whether `identifier` has that shape (case-insensitive; nothing else after it).
    static func isWellFormed(_ identifier: String) -> Bool {
        var parts = identifier.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }[...]
        guard let language = parts.popFirst(), (2...3).contains(language.count), language.allSatisfy(isLetter) else {
            return false
        }
        if let script = parts.first, script.count == 4, script.allSatisfy(isLetter) { parts.removeFirst() }
        if let region = parts.first,
            (region.count == 2 && region.allSatisfy(isLetter)) || (region.count == 3 && region.allSatisfy(isDigit))
        {
            parts.removeFirst()
        }
        return parts.isEmpty
    }

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }
    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
