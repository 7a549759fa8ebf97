import Foundation
import Testing
@testable import HeraldPayload

/// Issue 16: localization folders and `.xcstrings` keys spelled with alias codes
/// (`iw`, `in`, `ji`, `no`) or region-only Chinese (`zh_CN`) are found whichever spelling
/// the folder or the request uses; two spellings of one language merge deterministically.
@Suite("Locale aliases: folders and requests canonicalized alike")
struct LocaleAliasTests {
    static func strings(_ text: String) -> Data { Data(text.utf8) }

    /// One language per row: its alias or region-only spelling, its canonical one, its text.
    static let languages = [
        ("iw", "he", "שלום"), ("in", "id", "Halo"), ("ji", "yi", "שלום (yi)"), ("no", "nb", "Hei"),
        ("zh_CN", "zh-Hans", "你好"), ("zh_TW", "zh-Hant", "妳好"), ("pt_BR", "pt-BR", "Oi"),
    ]

    /// A catalog with an `en.lproj` and one folder per language, spelled by `spelling`.
    static func folders(_ spelling: ((String, String, String)) -> String) throws -> LocalizationCatalog {
        var files = ["en.lproj/Localizable.strings": strings(#""HI" = "Hello"; "EN_ONLY" = "en";"#)]
        for language in languages {
            files[spelling(language) + ".lproj/Localizable.strings"] = strings(#""HI" = "\#(language.2)";"#)
        }
        return try LocalizationCatalog(files: files, developmentLanguage: "en")
    }

    /// The folders use the alias / region-only spellings.
    static func aliasFolders() throws -> LocalizationCatalog { try folders { $0.0 } }

    /// The same languages with the canonical spellings.
    static func canonicalFolders() throws -> LocalizationCatalog { try folders { $0.1 } }

    @Test("alias folders are found for canonical, alias and regional requests", arguments: [
        ("he", "שלום", "iw"), ("he-IL", "שלום", "iw"), ("iw", "שלום", "iw"), ("iw_IL", "שלום", "iw"),
        ("id", "Halo", "in"), ("in", "Halo", "in"), ("id-ID", "Halo", "in"),
        ("yi", "שלום (yi)", "ji"), ("nb", "Hei", "no"), ("nb-NO", "Hei", "no"), ("no", "Hei", "no"),
        ("zh-Hans-CN", "你好", "zh_CN"), ("zh-Hans", "你好", "zh_CN"), ("zh-CN", "你好", "zh_CN"),
        ("zh", "你好", "zh_CN"), ("zh-SG", "你好", "zh_CN"),
        ("zh-Hant", "妳好", "zh_TW"), ("zh-TW", "妳好", "zh_TW"), ("zh-HK", "妳好", "zh_TW"),
        ("zh_Hant_TW", "妳好", "zh_TW"),
        ("pt-BR", "Oi", "pt_BR"), ("pt_BR", "Oi", "pt_BR"), ("pt", "Oi", "pt_BR"), ("pt-PT", "Oi", "pt_BR"),
        ("nn", "Hello", "en"), ("ja", "Hello", "en"),
    ])
    func aliasFolder(request: String, text: String, used: String) throws {
        let found = try Self.aliasFolders().localizedString(key: "HI", locale: request)
        #expect(found.text == text)
        #expect(found.locale == used)
    }

    @Test("canonical folders are found for alias and region-only requests", arguments: [
        ("iw", "שלום", "he"), ("iw-IL", "שלום", "he"), ("in", "Halo", "id"), ("ji", "שלום (yi)", "yi"),
        ("no", "Hei", "nb"), ("no_NO", "Hei", "nb"),
        ("zh_CN", "你好", "zh-Hans"), ("zh-SG", "你好", "zh-Hans"), ("zh_TW", "妳好", "zh-Hant"),
        ("zh-MO", "妳好", "zh-Hant"), ("pt_BR", "Oi", "pt-BR"), ("PT-br", "Oi", "pt-BR"),
    ])
    func canonicalFolder(request: String, text: String, used: String) throws {
        let found = try Self.canonicalFolders().localizedString(key: "HI", locale: request)
        #expect(found.text == text)
        #expect(found.locale == used)
    }

    @Test("a Traditional Chinese request never takes a Simplified folder, and the reverse", arguments: [
        ("zh_CN", "zh-TW", ["en"]), ("zh_CN", "zh-Hant", ["en"]), ("zh_CN", "zh-Hans-SG", ["zh_CN", "en"]),
        ("zh_TW", "zh-CN", ["en"]), ("zh_TW", "zh-Hans", ["en"]), ("zh_TW", "zh-Hant-HK", ["zh_TW", "en"]),
    ])
    func scriptsStayApart(folder: String, request: String, chain: [String]) throws {
        let catalog = try LocalizationCatalog(files: [
            "en.lproj/Localizable.strings": Self.strings(#""HI" = "Hello";"#),
            folder + ".lproj/Localizable.strings": Self.strings(#""HI" = "中文";"#),
        ], developmentLanguage: "en")
        #expect(catalog.fallbackChain(for: request) == chain)
    }

    @Test(".xcstrings language keys with alias and region-only spellings")
    func stringCatalogKeys() throws {
        let catalog = try LocalizationCatalog(files: [
            "Localizable.xcstrings": Fixtures.catalog([
                "HI": ["localizations": [
                    "en": Fixtures.unit("Hello"), "iw": Fixtures.unit("שלום"),
                    "zh_CN": Fixtures.unit("你好"), "zh-Hant": Fixtures.unit("妳好"), "pt_BR": Fixtures.unit("Oi"),
                ]],
            ]),
        ], developmentLanguage: "en")
        let cases = [("he-IL", "שלום", "iw"), ("zh-Hans", "你好", "zh_CN"), ("zh-Hans-CN", "你好", "zh_CN"),
                     ("zh-TW", "妳好", "zh-Hant"), ("pt-BR", "Oi", "pt_BR")]
        for (request, text, used) in cases {
            let found = catalog.localizedString(key: "HI", locale: request)
            #expect(found.text == text, "\(request)")
            #expect(found.locale == used, "\(request)")
        }
    }

    @Test("two spellings of one language: the canonical one wins whatever the file order; the other fills in")
    func spellingConflict() throws {
        let files: [String: Data] = [
            "en.lproj/Localizable.strings": Self.strings(#""HI" = "Hello"; "ONLY_OLD" = "old en";"#),
            "he.lproj/Localizable.strings": Self.strings(#""HI" = "he";"#),
            // Sorts after he.lproj: a later file would have replaced it before issue 16.
            "iw.lproj/Localizable.strings": Self.strings(#""HI" = "iw"; "ONLY_OLD" = "iw only";"#),
            "pt-BR.lproj/Localizable.strings": Self.strings(#""HI" = "pt-BR";"#),
            "pt_BR.lproj/Localizable.strings": Self.strings(#""HI" = "pt_BR";"#),
            "zh-Hans-CN.lproj/Localizable.strings": Self.strings(#""HI" = "zh-Hans-CN";"#),
            "zh_CN.lproj/Localizable.strings": Self.strings(#""HI" = "zh_CN";"#),
            "Localizable.xcstrings": Fixtures.catalog([
                "CAT": ["localizations": ["en": Fixtures.unit("cat"), "iw": Fixtures.unit("cat iw"), "he": Fixtures.unit("cat he")]],
            ]),
        ]
        let catalog = try LocalizationCatalog(files: files, developmentLanguage: "en")
        for request in ["he", "iw", "he-IL"] {
            #expect(catalog.localizedString(key: "HI", locale: request).text == "he")
            #expect(catalog.localizedString(key: "CAT", locale: request).text == "cat he")
            let filled = catalog.localizedString(key: "ONLY_OLD", locale: request)
            #expect(filled.text == "iw only")
            #expect(filled.locale == "iw")
            #expect(catalog.fallbackChain(for: request) == ["he", "en"])
        }
        #expect(catalog.localizedString(key: "HI", locale: "pt_BR").text == "pt-BR")
        #expect(catalog.localizedString(key: "HI", locale: "zh-CN").text == "zh-Hans-CN")
        #expect(catalog.localizations == ["en", "he", "pt-BR", "zh-Hans-CN"])
        #expect(catalog.spellingNotes == [
            "'he' and 'iw' are one localization (he): 'he' wins for a key both spell in files of one kind, the others fill in keys it lacks",
            "'pt-BR' and 'pt_BR' are one localization (pt-br): 'pt-BR' wins for a key both spell in files of one kind, the others fill in keys it lacks",
            "'zh-Hans-CN' and 'zh_CN' are one localization (zh-hans-cn): 'zh-Hans-CN' wins for a key both spell in files of one kind, the others fill in keys it lacks",
        ])
        #expect(try Self.aliasFolders().spellingNotes.isEmpty)
    }

    @Test("a more specific file kind still wins over a preferred spelling")
    func kindBeforeSpelling() throws {
        let catalog = try LocalizationCatalog(files: [
            "en.lproj/Localizable.strings": Self.strings(#""N" = "%d";"#),
            "he.lproj/Localizable.strings": Self.strings(#""N" = "he strings %d";"#),
            "iw.lproj/Localizable.stringsdict": Fixtures.plist(Fixtures.entry(
                "N", format: "%#@n@", Fixtures.variable("n", ["one": "iw one", "two": "iw two", "other": "iw other %d"]))),
        ], developmentLanguage: "en")
        let two = catalog.localizedString(key: "N", locale: "he", arguments: [.integer(2)])
        #expect(two.text == "iw two")  // Hebrew plural rules for the `iw` folder
        #expect(two.source == .stringsdict)
        #expect(two.locale == "iw")
    }

    @Test("canonical keys", arguments: [
        ("iw", "he"), ("IW_il", "he-il"), ("in", "id"), ("ji", "yi"), ("no", "nb"), ("no-NO", "nb-no"),
        ("jw", "jv"), ("mo", "ro"), ("tl", "fil"), ("zh_CN", "zh-hans-cn"), ("zh_TW", "zh-hant-tw"),
        ("zh-HK", "zh-hant-hk"), ("zh-Hans", "zh-hans"), ("zh", "zh"), ("pt_BR", "pt-br"), ("English", "en"),
        ("he", "he"), ("nn", "nn"), ("", ""),
    ])
    func canonical(identifier: String, expected: String) {
        #expect(LocaleFallback.canonical(identifier) == expected)
    }
}
