import Foundation
import Testing
@testable import HeraldPayload

@Suite("StringCatalog: .xcstrings")
struct StringCatalogTests {
    static func render(_ catalog: StringCatalog, _ key: String, _ language: String,
                       _ arguments: [FormatArgument] = []) throws -> String {
        let entry = try #require(catalog.entries[language]?[key], "\(language)/\(key)")
        return entry.render(arguments, rules: PluralRules(localeIdentifier: language)).text
    }

    @Test("string units, the source language defaulting to the key, missing languages absent")
    func stringUnits() throws {
        let data = Fixtures.catalog([
            "HELLO": ["localizations": ["en": Fixtures.unit("Hello %@"), "fr": Fixtures.unit("Bonjour %@")]],
            "Only in code": [String: Any](),
            "FR_ONLY": ["localizations": ["fr": Fixtures.unit("Seulement")], "comment": "x", "extractionState": "manual"],
        ])
        let catalog = try StringCatalog(parsing: data)
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.version == "1.0")
        #expect(try Self.render(catalog, "HELLO", "fr", [.string("Léa")]) == "Bonjour Léa")
        #expect(try Self.render(catalog, "HELLO", "en", [.string("Lea")]) == "Hello Lea")
        #expect(try Self.render(catalog, "Only in code", "en") == "Only in code")
        #expect(try Self.render(catalog, "FR_ONLY", "en") == "FR_ONLY")
        #expect(catalog.entries["fr"]?["Only in code"] == nil)
    }

    @Test("plural variations select with the first numeric specifier", arguments: [
        ("en", Int64(1), "Ann has 1 file"), ("en", 0, "Ann has no files"), ("en", 7, "Ann has 7 files"),
        ("fr", 0, "Ann a 0 fichier"), ("fr", 2, "Ann a 2 fichiers"),
    ])
    func pluralVariations(language: String, count: Int64, expected: String) throws {
        let data = Fixtures.catalog([
            "FILES": ["localizations": [
                "en": ["variations": Fixtures.plural(["zero": "%@ has no files", "one": "%@ has %lld file", "other": "%@ has %lld files"])],
                "fr": ["variations": Fixtures.plural(["one": "%@ a %lld fichier", "other": "%@ a %lld fichiers"])],
            ]],
        ])
        let catalog = try StringCatalog(parsing: data)
        #expect(try Self.render(catalog, "FILES", language, [.string("Ann"), .integer(count)]) == expected)
    }

    @Test("substitutions: several plurals in one string, %arg, argNum")
    func substitutions() throws {
        func substitution(_ argNum: Int, _ one: String, _ other: String) -> [String: Any] {
            ["argNum": argNum, "formatSpecifier": "lld", "variations": Fixtures.plural(["one": one, "other": other])]
        }
        let data = Fixtures.catalog([
            "SUMMARY": ["localizations": [
                "en": Fixtures.unit("%#@files@ in %#@folders@").merging([
                    "substitutions": ["files": substitution(1, "%arg file", "%arg files"),
                                      "folders": substitution(2, "%arg folder", "%arg folders")],
                ]) { $1 },
                "de": Fixtures.unit("In %#@folders@: %#@files@").merging([
                    "substitutions": ["files": substitution(1, "%arg Datei", "%arg Dateien"),
                                      "folders": substitution(2, "%arg Ordner", "%arg Ordnern")],
                ]) { $1 },
            ]],
        ])
        let catalog = try StringCatalog(parsing: data)
        #expect(try Self.render(catalog, "SUMMARY", "en", [.integer(1), .integer(3)]) == "1 file in 3 folders")
        #expect(try Self.render(catalog, "SUMMARY", "de", [.integer(5), .integer(1)]) == "In 1 Ordner: 5 Dateien")
        let entry = try #require(catalog.entries["de"]?["SUMMARY"])
        #expect(entry.variables["files"]?.forms[.one] == "%1$lld Datei")
    }

    @Test("device variations use the other device")
    func deviceVariations() throws {
        let data = Fixtures.catalog([
            "TAP": ["localizations": ["en": ["variations": ["device": [
                "iphone": Fixtures.unit("Tap"), "mac": Fixtures.unit("Click"), "other": Fixtures.unit("Select"),
            ]]]]],
        ])
        #expect(try Self.render(try StringCatalog(parsing: data), "TAP", "en") == "Select")
    }

    @Test("errors name the key path", arguments: [
        (#"{"sourceLanguage": "en", "strings": {"#, "", "not JSON"),
        (#"[1, 2]"#, "", "root must be a JSON object"),
        (#"{"strings": {}}"#, "", "missing sourceLanguage"),
        (#"{"sourceLanguage": "en"}"#, "", "missing strings"),
        (#"{"sourceLanguage": "en", "strings": {"K": 3}}"#, "K", "must be an object"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": []}}}"#, "K", "localizations must be an object"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {}}}}}"#, "K/fr", "needs a stringUnit or variations"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"stringUnit": {"state": "new"}}}}}}"#,
         "K/fr/stringUnit", "needs a string value"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"variations": {"plural": {"one": {"stringUnit": {"value": "x"}}}}}}}}}"#,
         "K/fr/variations/plural", "needs an 'other' form"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"variations": {"plural": {"single": {"stringUnit": {"value": "x"}}}}}}}}}"#,
         "K/fr/variations/plural/single", "unknown plural category 'single'"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"variations": {"width": {}}}}}}}"#,
         "K/fr/variations", "unsupported variations 'width'"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"stringUnit": {"value": "%#@n@"}}}}}}"#,
         "K/fr", "no substitution 'n'"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"stringUnit": {"value": "%#@n@"}, "substitutions": {"n": {"argNum": 0}}}}}}}"#,
         "K/fr/substitutions/n/argNum", "argNum must be an integer from 1"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"stringUnit": {"value": "%#@n@"}, "substitutions": {"n": {"argNum": 1}}}}}}}"#,
         "K/fr/substitutions/n", "needs variations.plural"),
        (#"{"sourceLanguage": "en", "strings": {"K": {"localizations": {"fr": {"stringUnit": {"value": "%#@n@"}, "substitutions": {"n": {"formatSpecifier": "k", "variations": {}}}}}}}}"#,
         "K/fr/substitutions/n/formatSpecifier", "not a format specifier"),
    ])
    func errors(json: String, key: String, reason: String) throws {
        let error = try #require(throws: PayloadError.self) {
            try StringCatalog(parsing: Data(json.utf8), file: "Localizable.xcstrings")
        }
        #expect(error.code == .stringCatalog)
        #expect(error.location.file == "Localizable.xcstrings")
        #expect(error.location.key == (key.isEmpty ? nil : key))
        #expect(error.reason.contains(reason), "\(error)")
    }
}
