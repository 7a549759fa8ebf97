/// Locale identifier canonicalization and the fallback candidates of a requested locale.
///
/// Identifiers are compared case-insensitively with `_` and `-` equivalent
/// (`fr_CA` = `fr-CA` = `FR-ca`). Anything after `@` (`en_US@calendar=…`) and from a
/// one-letter extension subtag on (`-u-…`, `-x-…`) is ignored.
///
/// Both sides are canonicalized the same way — the requested locale and every folder
/// (`iw.lproj`) or `.xcstrings` language key — so a localization is found whichever
/// spelling it or the request uses:
/// - deprecated and alias language codes become the current ones: `iw` → `he`,
///   `in` → `id`, `ji` → `yi`, `jw` → `jv`, `mo` → `ro`, `tl` → `fil` (CLDR's language
///   aliases), and `no` → `nb` (Apple ships Norwegian as `nb`; older bundles say `no`);
/// - Chinese with a region but no script gets the script of its region, as Apple does:
///   `zh_TW`, `zh-HK`, `zh-MO` → `zh-hant-…`, other regions → `zh-hans-…` (`zh_CN` →
///   `zh-hans-cn`, so `zh_CN.lproj` serves `zh-Hans` and `zh-Hans-CN`).
///
/// Candidates drop subtags from the right: `zh-Hans-CN` → `zh-hans-cn`, `zh-hans`, `zh`;
/// `fr-CA` → `fr-ca`, `fr`; a bare `zh` request is tried as `zh-hans`, then `zh`.
public enum LocaleFallback {
    /// `fr_CA` → `fr-ca`; legacy `.lproj` names (`English`, `French`, …) → their codes.
    /// Case and separators only: see ``canonical(_:)`` for aliases and scripts.
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

    /// The canonical key of an identifier: normalised, alias language codes replaced,
    /// Chinese given the script of its region (`iw_IL` → `he-il`, `zh_TW` → `zh-hant-tw`,
    /// `no` → `nb`). A bare `zh` stays `zh` (a folder for any Chinese).
    public static func canonical(_ identifier: String) -> String {
        var subtags = normalize(identifier).split(separator: "-").map(String.init)
        guard let language = subtags.first else { return "" }
        if let alias = aliases[language] { subtags[0] = alias }
        if subtags[0] == "zh", subtags.count > 1, !subtags.dropFirst().contains(where: { $0.count == 4 }) {
            let traditional = subtags.dropFirst().contains { ["tw", "hk", "mo"].contains($0) }
            subtags.insert(traditional ? "hant" : "hans", at: 1)
        }
        return subtags.joined(separator: "-")
    }

    /// The identifiers to try for `identifier`, most specific first, canonical.
    public static func candidates(for identifier: String) -> [String] {
        var subtags = canonical(identifier).split(separator: "-").map(String.init)
        if subtags == ["zh"] { subtags = ["zh", "hans"] }
        var result: [String] = []
        while !subtags.isEmpty {
            result.append(subtags.joined(separator: "-"))
            subtags.removeLast()
        }
        return result
    }

    /// How far `spelling` is from its canonical `key`: 0 when it only differs in case or
    /// separator (`pt_BR` for `pt-br`), 1 when it is an alias or lacks the script
    /// (`iw`, `zh_CN`). Of two spellings of one key the lower rank
    /// wins, then the smaller name (`pt-BR` before `pt_BR`: `-` sorts before `_`).
    static func spellingRank(_ spelling: String, key: String) -> Int {
        spelling.lowercased().replacingOccurrences(of: "_", with: "-") == key ? 0 : 1
    }

    /// Whether spelling `a` of one canonical `key` is preferred to spelling `b`.
    static func prefers(_ a: String, over b: String, key: String) -> Bool {
        let (rankA, rankB) = (spellingRank(a, key: key), spellingRank(b, key: key))
        return rankA != rankB ? rankA < rankB : a < b
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

    private static let aliases = [
        "iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "tl": "fil", "no": "nb",
    ]

    private static let legacyNames = [
        "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es",
        "italian": "it", "dutch": "nl",
    ]
}
