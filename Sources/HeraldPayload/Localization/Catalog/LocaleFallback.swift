/// Locale identifier normalisation and the fallback candidates of a requested locale.
///
/// Identifiers are compared case-insensitively with `_` and `-` equivalent
/// (`fr_CA` = `fr-CA` = `FR-ca`). Anything after `@` (`en_US@calendar=…`) and from a
/// one-letter extension subtag on (`-u-…`, `-x-…`) is ignored.
///
/// Candidates drop subtags from the right: `zh-Hans-CN` → `zh-hans-cn`, `zh-hans`, `zh`;
/// `fr-CA` → `fr-ca`, `fr`. Chinese without a script gets one from its region, as Apple
/// does: `zh-TW`, `zh-HK`, `zh-MO` → `zh-hant`, other regions → `zh-hans` (before `zh`).
/// The legacy aliases `iw` (Hebrew) and `in` (Indonesian) are tried as `he` and `id`.
public enum LocaleFallback {
    /// `fr_CA` → `fr-ca`; legacy `.lproj` names (`English`, `French`, …) → their codes.
    public static func normalize(_ identifier: String) -> String {
        var text = identifier
        if let at = text.firstIndex(of: "@") { text = String(text[..<at]) }
        var subtags: [String] = []
        for subtag in text.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }) {
            if subtag.count == 1 { break }
            subtags.append(String(subtag))
        }
        if subtags.count == 1, let code = legacyNames[subtags[0]] { return code }
        return subtags.joined(separator: "-")
    }

    /// The identifiers to try for `identifier`, most specific first, normalised.
    public static func candidates(for identifier: String) -> [String] {
        var subtags = normalize(identifier).split(separator: "-").map(String.init)
        guard let language = subtags.first else { return [] }
        if let alias = aliases[language] { subtags[0] = alias }
        if subtags[0] == "zh", !subtags.dropFirst().contains(where: { $0.count == 4 }) {
            let traditional = subtags.dropFirst().contains { ["tw", "hk", "mo"].contains($0) }
            subtags.insert(traditional ? "hant" : "hans", at: 1)
        }
        var result: [String] = []
        while !subtags.isEmpty {
            result.append(subtags.joined(separator: "-"))
            subtags.removeLast()
        }
        return result
    }

    /// The language subtag (`zh-hans-cn` → `zh`).
    static func language(of normalized: String) -> String {
        String(normalized.prefix { $0 != "-" })
    }

    /// The script subtag, if any (`zh-hans-cn` → `hans`).
    static func script(of normalized: String) -> String? {
        normalized.split(separator: "-").dropFirst().first { $0.count == 4 }.map(String.init)
    }

    /// The code of a legacy `.lproj` name (`English` → `en`), `nil` for other names.
    static func legacyCode(_ name: String) -> String? {
        legacyNames[name.lowercased()]
    }

    private static let aliases = ["iw": "he", "in": "id", "ji": "yi"]

    private static let legacyNames = [
        "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es",
        "italian": "it", "dutch": "nl",
    ]
}
