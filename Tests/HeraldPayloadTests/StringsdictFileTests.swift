import Foundation
import Testing
@testable import HeraldPayload

@Suite("StringsdictFile: .stringsdict plurals")
struct StringsdictFileTests {
    static let english = PluralRules(localeIdentifier: "en")

    static func render(_ body: String, key: String, _ arguments: [FormatArgument], locale: String = "en") throws -> String {
        let entries = try StringsdictFile.parse(Fixtures.plist(body))
        let entry = try #require(entries[key])
        return entry.render(arguments, rules: PluralRules(localeIdentifier: locale)).text
    }

    static let files = Fixtures.entry(
        "FILES", format: "%#@files@",
        Fixtures.variable("files", ["one": "%d file", "other": "%d files"]))

    @Test("one variable, English", arguments: [(1, "1 file"), (2, "2 files"), (0, "0 files"), (21, "21 files")])
    func oneVariable(count: Int64, expected: String) throws {
        #expect(try Self.render(Self.files, key: "FILES", [.integer(count)]) == expected)
    }

    @Test("the zero form is used for 0 even in English")
    func zeroForm() throws {
        let body = Fixtures.entry("FILES", format: "%#@files@",
                                  Fixtures.variable("files", ["zero": "No files", "one": "%d file", "other": "%d files"]))
        #expect(try Self.render(body, key: "FILES", [.integer(0)]) == "No files")
        #expect(try Self.render(body, key: "FILES", [.integer(1)]) == "1 file")
        #expect(try Self.render(body, key: "FILES", [.double(0.0)]) == "No files")
    }

    @Test("several variables in one format key")
    func severalVariables() throws {
        let body = Fixtures.entry(
            "FILES_IN_FOLDERS", format: "%#@files@ in %#@folders@",
            Fixtures.variable("files", ["one": "%d file", "other": "%d files"]),
            Fixtures.variable("folders", ["one": "%d folder", "other": "%d folders"]))
        #expect(try Self.render(body, key: "FILES_IN_FOLDERS", [.integer(3), .integer(1)]) == "3 files in 1 folder")
        #expect(try Self.render(body, key: "FILES_IN_FOLDERS", [.integer(1), .integer(2)]) == "1 file in 2 folders")
    }

    @Test("variables mixed with ordinary arguments; a form without its number shifts nothing")
    func mixedArguments() throws {
        let sent = Fixtures.entry("SENT", format: "%@ sent %#@photos@",
                                  Fixtures.variable("photos", ["one": "%d photo", "other": "%d photos"]))
        #expect(try Self.render(sent, key: "SENT", [.string("Ann"), .integer(1)]) == "Ann sent 1 photo")
        let from = Fixtures.entry("FROM", format: "%#@photos@ from %@",
                                  Fixtures.variable("photos", ["one": "a photo", "other": "%d photos"]))
        #expect(try Self.render(from, key: "FROM", [.integer(1), .string("Ann")]) == "a photo from Ann")
        #expect(try Self.render(from, key: "FROM", [.integer(4), .string("Ann")]) == "4 photos from Ann")
    }

    @Test("positional variables and forms")
    func positional() throws {
        let body = Fixtures.entry(
            "GEESE", format: "%1$@: %3$#@geese@ landed on %2$#@fields@",
            Fixtures.variable("geese", ["one": "%3$d goose", "other": "%3$d geese"]),
            Fixtures.variable("fields", ["one": "%2$d field", "other": "%2$d fields"]))
        #expect(try Self.render(body, key: "GEESE", [.string("Today"), .integer(1), .integer(5)])
                == "Today: 5 geese landed on 1 field")
    }

    @Test("Russian forms", arguments: [
        (Int64(1), "1 файл"), (3, "3 файла"), (5, "5 файлов"), (11, "11 файлов"), (22, "22 файла"), (0, "0 файлов"),
    ])
    func russian(count: Int64, expected: String) throws {
        let body = Fixtures.entry("FILES", format: "%#@n@", Fixtures.variable(
            "n", ["one": "%d файл", "few": "%d файла", "many": "%d файлов", "other": "%d файла"]))
        #expect(try Self.render(body, key: "FILES", [.integer(count)], locale: "ru") == expected)
    }

    @Test("decimal values select by visible digits")
    func decimals() throws {
        let precise = Fixtures.entry("MILES", format: "%#@miles@",
                                     Fixtures.variable("miles", type: ".1f", ["one": "%.1f mile", "other": "%.1f miles"]))
        #expect(try Self.render(precise, key: "MILES", [.double(1)]) == "1.0 miles")
        let plain = Fixtures.entry("MILES", format: "%#@miles@",
                                   Fixtures.variable("miles", type: "g", ["one": "%g mile", "other": "%g miles"]))
        #expect(try Self.render(plain, key: "MILES", [.double(1)]) == "1 mile")
        #expect(try Self.render(plain, key: "MILES", [.double(1.5)]) == "1.5 miles")
        #expect(try Self.render(plain, key: "MILES", [.double(1.5)], locale: "fr") == "1.5 mile")
        let russian = Fixtures.entry("KM", format: "%#@km@", Fixtures.variable(
            "km", type: "g", ["one": "%g км (one)", "few": "%g км (few)", "many": "%g км (many)", "other": "%g км (other)"]))
        #expect(try Self.render(russian, key: "KM", [.double(1.5)], locale: "ru") == "1.5 км (other)")
    }

    @Test("a string argument that spells a number selects too; other text selects other")
    func stringArguments() throws {
        #expect(try Self.render(Self.files, key: "FILES", [.string("1")]) == "1 file")
        #expect(try Self.render(Self.files, key: "FILES", [.string("many")]) == "many files")
        #expect(try Self.render(Self.files, key: "FILES", []) == " files")
    }

    @Test("the chosen categories are reported")
    func categories() throws {
        let entries = try StringsdictFile.parse(Fixtures.plist(Self.files))
        let rendered = try #require(entries["FILES"]).render([.integer(1)], rules: Self.english)
        #expect(rendered.categories == ["files": .one])
    }

    @Test("a variable-width entry uses its widest variant")
    func variableWidth() throws {
        let body = """
        <key>TITLE</key><dict><key>NSStringVariableWidthRuleType</key><dict>
        <key>20</key><string>Short</string><key>100</key><string>A much longer title</string></dict></dict>
        """
        #expect(try Self.render(body, key: "TITLE", []) == "A much longer title")
    }

    @Test("errors name the key and what is wrong", arguments: [
        ("not a plist", "", "not a property list"),
        ("<key>K</key><string>x</string>", "K", "must be a dictionary"),
        ("<key>K</key><dict></dict>", "K", "missing NSStringLocalizedFormatKey"),
        ("<key>K</key><dict><key>NSStringLocalizedFormatKey</key><integer>3</integer></dict>", "K", "must be a string"),
        (Fixtures.entry("K", format: "%#@files@"), "K", "no variable 'files' is defined"),
        (Fixtures.entry("K", format: "%#@a@", Fixtures.variable("a", ["one": "%#@b@", "other": "x"])), "K/a",
         "no variable 'b' is defined"),
        (Fixtures.entry("K", format: "%#@v@", "<key>v</key><string>x</string>"), "K/v", "must be a dictionary"),
        (Fixtures.entry("K", format: "%#@v@", "<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringDeviceSpecificRuleType</string></dict>"),
         "K/v", "only NSStringPluralRuleType is supported"),
        (Fixtures.entry("K", format: "%#@v@", "<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>other</key><string>x</string></dict>"),
         "K/v", "no NSStringFormatValueTypeKey"),
        (Fixtures.entry("K", format: "%#@v@", Fixtures.variable("v", type: "q", ["other": "x"])), "K/v",
         "not a format specifier"),
        (Fixtures.entry("K", format: "%#@v@", Fixtures.variable("v", ["ones": "x", "other": "y"])), "K/v",
         "unknown plural category 'ones'"),
        (Fixtures.entry("K", format: "%#@v@", Fixtures.variable("v", ["one": "x"])), "K/v", "no 'other' form"),
        (Fixtures.entry("K", format: "%#@v@", "<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>other</key><integer>1</integer></dict>"),
         "K/v/other", "must be a string"),
    ])
    func errors(body: String, key: String, reason: String) throws {
        let data = body == "not a plist" ? Data("not a plist <<".utf8) : Fixtures.plist(body)
        let error = try #require(throws: PayloadError.self) {
            try StringsdictFile.parse(data, file: "fr.lproj/Localizable.stringsdict")
        }
        #expect(error.code == .stringsdict)
        #expect(error.location.file == "fr.lproj/Localizable.stringsdict")
        #expect(error.location.key == (key.isEmpty ? nil : key))
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test("the root must be a dictionary")
    func rootNotDictionary() throws {
        let data = Data("""
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><string>x</string></array></plist>
        """.utf8)
        let error = try #require(throws: PayloadError.self) { try StringsdictFile.parse(data) }
        #expect(error.reason.contains("root"))
    }
}
