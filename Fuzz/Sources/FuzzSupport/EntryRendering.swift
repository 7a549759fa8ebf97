import HeraldPayload

/// Renders parsed localizations the way an alert is rendered, with arguments of every kind
/// and the plural rules of languages whose categories differ.
public enum EntryRendering {
    private static let argumentLists: [[FormatArgument]] = [
        [],
        [.integer(1), .string("Léa"), .double(2.5), .timestamp(1_795_300_000_000)],
        [.integer(Int64.min), .double(-0.0), .integer(Int64.max), .double(1e300), .string("")],
    ]

    private static let languages = ["en", "fr", "ar", "ru", "ja", "cy"].map(PluralRules.init(localeIdentifier:))

    /// Renders every entry with every argument list in every language.
    public static func renderAll(_ entries: some Sequence<LocalizedEntry>) {
        for entry in entries {
            for arguments in argumentLists {
                for rules in languages { _ = entry.render(arguments, rules: rules, missingArgument: "?") }
            }
        }
    }

    /// Parses every text as a format string and renders it with every argument list.
    public static func renderAll(formats: some Sequence<String>) {
        for text in formats {
            let format = FormatString(text)
            for arguments in argumentLists { _ = format.render(arguments, missingArgument: "?") }
        }
    }
}
