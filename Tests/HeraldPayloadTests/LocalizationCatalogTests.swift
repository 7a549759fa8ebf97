import Foundation
import Testing
@testable import HeraldPayload

@Suite("LocalizationCatalog: bundles, precedence and locale fallback")
struct LocalizationCatalogTests {
    static func files() -> [String: Data] {
        func strings(_ text: String) -> Data { Data(text.utf8) }
        return [
            "Base.lproj/Localizable.strings": strings(#""GREETING" = "Hello (base)"; "BASE_ONLY" = "base only";"#),
            "en.lproj/Localizable.strings": strings(#""GREETING" = "Hello %@"; "EN_ONLY" = "en"; "COUNT" = "%d things (strings)";"#),
            "en.lproj/Localizable.stringsdict": Fixtures.plist(Fixtures.entry(
                "COUNT", format: "%#@n@", Fixtures.variable("n", ["one": "%d thing", "other": "%d things"]))),
            "fr.lproj/Localizable.strings": strings(#""GREETING" = "Bonjour %@"; "COUNT" = "%d (strings)";"#),
            "fr-CA.lproj/Localizable.strings": strings(#""GREETING" = "Allô %@";"#),
            "fr.lproj/Notifications.strings": strings(#""N" = "n fr";"#),
            "pt-PT.lproj/Localizable.strings": strings(#""GREETING" = "Olá %@";"#),
            "zh-Hans.lproj/Localizable.strings": strings(#""GREETING" = "你好 %@";"#),
            "zh-Hant.lproj/Localizable.strings": strings(#""GREETING" = "妳好 %@";"#),
            "Localizable.strings": strings(#""ROOT_ONLY" = "root";"#),
            "Localizable.xcstrings": Fixtures.catalog([
                "CATALOG": ["localizations": ["en": Fixtures.unit("Catalog"), "de": Fixtures.unit("Katalog")]],
                "COUNT": ["localizations": [
                    "fr": ["variations": Fixtures.plural(["one": "%lld chose", "other": "%lld choses"])],
                ]],
            ]),
            "README.md": strings("ignored"),
            ".DS_Store": Data([0, 1, 2]),
        ]
    }

    static func catalog() throws -> LocalizationCatalog {
        try LocalizationCatalog(files: files(), developmentLanguage: "en")
    }

    @Test("fallback chains", arguments: [
        ("fr-CA", ["fr-CA", "fr", "en", "Base", ""]),
        ("fr_ca", ["fr-CA", "fr", "en", "Base", ""]),
        ("FR-ca", ["fr-CA", "fr", "en", "Base", ""]),
        ("fr", ["fr", "fr-CA", "en", "Base", ""]),
        ("fr-FR", ["fr", "fr-CA", "en", "Base", ""]),
        ("pt-BR", ["pt-PT", "en", "Base", ""]),
        ("pt_PT", ["pt-PT", "en", "Base", ""]),
        ("zh-Hans-CN", ["zh-Hans", "en", "Base", ""]),
        ("zh_Hant_TW", ["zh-Hant", "en", "Base", ""]),
        ("zh-TW", ["zh-Hant", "en", "Base", ""]),
        ("zh-HK", ["zh-Hant", "en", "Base", ""]),
        ("zh-CN", ["zh-Hans", "en", "Base", ""]),
        ("zh", ["zh-Hans", "en", "Base", ""]),
        ("de-AT", ["de", "en", "Base", ""]),
        ("en-GB", ["en", "Base", ""]),
        ("ja-JP", ["en", "Base", ""]),
        ("", ["en", "Base", ""]),
        ("en_US@calendar=buddhist", ["en", "Base", ""]),
    ])
    func chains(locale: String, expected: [String]) throws {
        #expect(try Self.catalog().fallbackChain(for: locale) == expected)
    }

    @Test("lookups report the text, the locale used and the source", arguments: [
        ("fr-CA", "GREETING", "Allô Léa", "fr-CA", LocalizedText.Source.strings),
        ("fr-FR", "GREETING", "Bonjour Léa", "fr", .strings),
        ("fr-CA", "EN_ONLY", "en", "en", .strings),
        ("ja", "GREETING", "Hello Léa", "en", .strings),
        ("ja", "BASE_ONLY", "base only", "en", .strings),
        ("fr", "ROOT_ONLY", "root", "en", .strings),
        ("pt-BR", "GREETING", "Olá Léa", "pt-PT", .strings),
        ("zh-TW", "GREETING", "妳好 Léa", "zh-Hant", .strings),
        ("zh-Hans-SG", "GREETING", "你好 Léa", "zh-Hans", .strings),
        ("de-CH", "CATALOG", "Katalog", "de", .stringCatalog),
        ("fr", "CATALOG", "Catalog", "en", .stringCatalog),
    ])
    func lookups(locale: String, key: String, text: String, used: String, source: LocalizedText.Source) throws {
        let result = try Self.catalog().localizedString(key: key, locale: locale, arguments: [.string("Léa")])
        #expect(result.text == text)
        #expect(result.locale == used)
        #expect(result.source == source)
        #expect(result.isFound)
    }

    @Test("precedence in one language: stringsdict > xcstrings > strings", arguments: [
        ("en", Int64(1), "1 thing", LocalizedText.Source.stringsdict, "en"),
        ("en-AU", 2, "2 things", .stringsdict, "en"),
        ("fr", 0, "0 chose", .stringCatalog, "fr"),
        ("fr-CA", 5, "5 choses", .stringCatalog, "fr"),
        // Falling back to English also means English plural rules: 21 is `other`.
        ("ru", 21, "21 things", .stringsdict, "en"),
    ])
    func precedence(locale: String, count: Int64, text: String, source: LocalizedText.Source, used: String) throws {
        let result = try Self.catalog().localizedString(key: "COUNT", locale: locale, arguments: [.integer(count)])
        #expect(result.text == text)
        #expect(result.source == source)
        #expect(result.locale == used)
    }

    @Test("plural categories are reported")
    func categories() throws {
        let result = try Self.catalog().localizedString(key: "COUNT", locale: "fr", arguments: [.integer(1)])
        #expect(result.pluralCategories == ["plural": .one])
    }

    @Test("a missing key gives the key formatted, without a locale")
    func missingKey() throws {
        let result = try Self.catalog().localizedString(key: "NOPE %@", locale: "fr", arguments: [.string("x")])
        #expect(result.text == "NOPE x")
        #expect(result.locale == nil)
        #expect(result.source == nil)
        #expect(!result.isFound)
    }

    @Test("tables are separate")
    func tables() throws {
        let catalog = try Self.catalog()
        #expect(catalog.localizedString(key: "N", table: "Notifications", locale: "fr-CA").text == "n fr")
        #expect(!catalog.localizedString(key: "N", locale: "fr").isFound)
        #expect(!catalog.localizedString(key: "GREETING", table: "Notifications", locale: "fr").isFound)
    }

    @Test("missing arguments use the placeholder")
    func missingArgument() throws {
        let catalog = try Self.catalog()
        #expect(catalog.localizedString(key: "GREETING", locale: "fr").text == "Bonjour ")
        #expect(catalog.localizedString(key: "GREETING", locale: "fr", missingArgument: "…").text == "Bonjour …")
    }

    @Test("localizations as the bundle spells them; legacy folder names")
    func localizations() throws {
        #expect(try Self.catalog().localizations == ["", "Base", "de", "en", "fr", "fr-CA", "pt-PT", "zh-Hans", "zh-Hant"])
        let legacy = try LocalizationCatalog(
            files: ["English.lproj/Localizable.strings": Data(#""A" = "a";"#.utf8)], developmentLanguage: "en")
        #expect(legacy.localizations == ["en"])
        #expect(legacy.localizedString(key: "A", locale: "en-US").locale == "en")
    }

    @Test("a broken file fails the catalog with its path and line")
    func brokenFile() throws {
        var files = Self.files()
        files["de.lproj/Localizable.strings"] = Data("\"A\" = \"a\";\n\"B\" = \"b\"\n".utf8)
        let error = try #require(throws: PayloadError.self) {
            try LocalizationCatalog(files: files, developmentLanguage: "en")
        }
        #expect(error.location.file == "de.lproj/Localizable.strings")
        #expect(error.location.line == 2)
    }

    @Test("an .lproj folder without a name is an error")
    func emptyFolderName() throws {
        let error = try #require(throws: PayloadError.self) {
            try LocalizationCatalog(files: [".lproj/Localizable.strings": Data()], developmentLanguage: "en")
        }
        #expect(error.code == .bundle)
    }

    @Test("a development language with a region")
    func regionalDevelopmentLanguage() throws {
        let catalog = try LocalizationCatalog(files: [
            "en-GB.lproj/Localizable.strings": Data(#""COLOUR" = "colour";"#.utf8),
            "en.lproj/Localizable.strings": Data(#""COLOUR" = "color"; "X" = "x";"#.utf8),
        ], developmentLanguage: "en-GB")
        #expect(catalog.fallbackChain(for: "fr") == ["en-GB", "en"])
        #expect(catalog.localizedString(key: "COLOUR", locale: "de").text == "colour")
        #expect(catalog.localizedString(key: "X", locale: "de").locale == "en")
    }
}

@Suite("LocalizationCatalog: subscription-time checks")
struct LocalizationCatalogValidationTests {
    static func catalog() throws -> LocalizationCatalog {
        try LocalizationCatalog(files: [
            "en.lproj/Localizable.strings": Data(#""TWO" = "%@ and %@"; "ONE" = "%@"; "BAD" = "%y";"#.utf8),
            "fr.lproj/Localizable.strings": Data(#""TWO" = "%2$@ et %3$@"; "FR_ONLY" = "x";"#.utf8),
            "en.lproj/Localizable.stringsdict": Fixtures.plist(Fixtures.entry(
                "SENT", format: "%@ sent %#@photos@",
                Fixtures.variable("photos", ["one": "a photo", "other": "%d photos from %@"]))),
        ], developmentLanguage: "en")
    }

    @Test("problems per key and argument count", arguments: [
        ("ONE", 1, [String]()),
        ("ONE", 3, []),
        ("TWO", 2, ["fr/TWO: '%3$@' refers to argument 3 but only 2 arguments are given"]),
        ("TWO", 1, ["en/TWO: '%@' refers to argument 2 but only 1 argument is given",
                    "fr/TWO: '%2$@' refers to argument 2 but only 1 argument is given",
                    "fr/TWO: '%3$@' refers to argument 3 but only 1 argument is given"]),
        ("BAD", 0, ["en/BAD: unknown format specifier '%y'"]),
        ("FR_ONLY", 0, ["FR_ONLY: no entry in table 'Localizable' for the development language 'en'"]),
        ("SENT", 3, []),
        ("SENT", 2, ["en/SENT: form 'other' of photos: '%@' refers to argument 3 but only 2 arguments are given"]),
        ("SENT", 1, ["en/SENT: '%#@photos@' refers to argument 2 but only 1 argument is given",
                     "en/SENT: form 'other' of photos: '%d' refers to argument 2 but only 1 argument is given",
                     "en/SENT: form 'other' of photos: '%@' refers to argument 3 but only 1 argument is given"]),
    ])
    func problems(key: String, count: Int, expected: [String]) throws {
        let found = try Self.catalog().problems(forKey: key, argumentCount: count)
        #expect(found.map { "\($0.location.key ?? ""): \($0.reason)" } == expected)
    }
}
