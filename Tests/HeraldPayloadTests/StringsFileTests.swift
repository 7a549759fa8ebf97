import Foundation
import Testing
@testable import HeraldPayload

@Suite("StringsFile: .strings parser")
struct StringsFileTests {
    static func parse(_ text: String) throws -> [String: String] {
        try StringsFile.parse(Data(text.utf8))
    }

    @Test("escape sequences", arguments: [
        (#""k" = "a\nb";"#, "a\nb"),
        (#""k" = "a\tb";"#, "a\tb"),
        (#""k" = "a\rb";"#, "a\rb"),
        (#""k" = "say \"hi\"";"#, "say \"hi\""),
        (#""k" = "it\'s";"#, "it's"),
        (#""k" = "back\\slash";"#, "back\\slash"),
        (#""k" = "\a\b\f\v";"#, "\u{07}\u{08}\u{0C}\u{0B}"),
        (#""k" = "caf\U00e9";"#, "café"),
        (#""k" = "caf\U00E9";"#, "café"),
        (#""k" = "\UD83D\UDE00!";"#, "😀!"),
        (#""k" = "\101\102";"#, "AB"),
        (#""k" = "\0";"#, "\0"),
        (#""k" = "\7x";"#, "\u{07}x"),
        (#""k" = "\1234";"#, "S4"),
        (#""k" = "\q\%";"#, "q%"),
        (#""k" = "\u00e9";"#, "u00e9"),
        (#"'k' = 'a\'b"c';"#, "a'b\"c"),
    ])
    func escapes(source: String, value: String) throws {
        #expect(try Self.parse(source) == ["k": value])
    }

    @Test("grammar: comments, quoting, unquoted tokens, key-only entries", arguments: [
        ("", [String: String]()),
        ("  \n\t\n", [:]),
        ("/* only a comment */\n// and a line comment", [:]),
        (#""a" = "b";"#, ["a": "b"]),
        (#"/* c */ "a" = "b"; // trailing"#, ["a": "b"]),
        ("/* multi\nline\n*/\n\"a\" = \"b\";", ["a": "b"]),
        (#""a" /* x */ = /* y */ "b" /* z */ ;"#, ["a": "b"]),
        ("\"a\" // note\n = \"b\";", ["a": "b"]),
        ("\"a\"=\"b\";\"c\"=\"d\";", ["a": "b", "c": "d"]),
        ("'a' = 'b';", ["a": "b"]),
        ("key = value;", ["key": "value"]),
        ("a.b-c/d:e$f_1 = 42;", ["a.b-c/d:e$f_1": "42"]),
        ("a//b = c;", ["a//b": "c"]),
        ("\"k\" = v1.5;", ["k": "v1.5"]),
        (#""key";"#, ["key": "key"]),
        ("bare;", ["bare": "bare"]),
        (#""" = "";"#, ["": ""]),
        ("\"a\" = \"1\";\n\"a\" = \"2\";", ["a": "2"]),
        ("\"a\" = \"line1\nline2\";", ["a": "line1\nline2"]),
        ("\"a\" = \"b\";\r\n\"c\" = \"d\";\r\n", ["a": "b", "c": "d"]),
        ("\"ключ\" = \"значение 🎉\";", ["ключ": "значение 🎉"]),
        ("\"a\" = \"/* not a comment */ // nor this\";", ["a": "/* not a comment */ // nor this"]),
    ])
    func grammar(source: String, expected: [String: String]) throws {
        #expect(try Self.parse(source) == expected)
    }

    @Test("errors name the line and column", arguments: [
        (#""a" = "b""#, 1, 10, "missing ';'"),
        ("\"a\" = \"b\"\n\"c\" = \"d\";", 1, 10, "missing ';'"),
        ("\"x\" = \"y\";\n\n\"a\" = \"b\"   // no semicolon\n", 3, 10, "missing ';'"),
        (#""a" = ;"#, 1, 6, "missing value"),
        ("\"a\" =", 1, 6, "missing value"),
        (#""a" "b";"#, 1, 4, "missing '='"),
        ("\"ok\" = \"1\";\n\"a\"", 2, 4, "missing '=' or ';'"),
        ("\"a\" = \"b;\nc = d;", 1, 7, "unterminated string"),
        // An unclosed quote runs to the next quote, as in CoreFoundation; the error then
        // shows up where the grammar breaks.
        ("\"a\" = \"b;\n\"c\" = \"d\";", 2, 2, "missing ';'"),
        ("\"a\" = 'b\";", 1, 7, "unterminated string"),
        ("\"a\" = \"b\\", 1, 7, "unterminated string"),
        ("\n\n/* abc\n", 3, 1, "unterminated comment"),
        ("= \"b\";", 1, 1, "expected a key"),
        ("\"a\" = \"b\";;", 1, 11, "expected a key"),
        ("\"a\" = #b;", 1, 7, "unexpected character '#'"),
        ("\"a\" = \"b\";\r\n\"c\" = \"d\"\r\n", 2, 10, "missing ';'"),
        ("\"a\" = \"b\";\r\"c\" = \"d\"\r", 2, 10, "missing ';'"),
    ])
    func syntaxErrors(source: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(throws: PayloadError.self) { try Self.parse(source) }
        #expect(error.code == .stringsSyntax)
        #expect(error.location.line == line)
        #expect(error.location.column == column)
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test("bad escapes are errors at the backslash", arguments: [
        ("\"a\" = \"b\";\n\n  \"c\" = \"\\U12\";", 3, 10, "exactly 4 hexadecimal digits"),
        (#""k" = "\UD83D";"#, 1, 8, "lone high surrogate"),
        (#""k" = "\UD83Dx";"#, 1, 8, "lone high surrogate"),
        (#""k" = "\UD83D\U0041";"#, 1, 8, "not a low surrogate"),
        (#""k" = "\UDE00";"#, 1, 8, "lone low surrogate"),
        (#""k" = "\Uzzzz";"#, 1, 8, "exactly 4 hexadecimal digits"),
    ])
    func escapeErrors(source: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(throws: PayloadError.self) { try Self.parse(source) }
        #expect(error.code == .stringsEscape)
        #expect(error.location.line == line)
        #expect(error.location.column == column)
        #expect(error.reason.contains(reason), "\(error)")
    }

    static let sample = "/* greeting */\n\"hello\" = \"Bonjour 😀\";\nbye = \"Au revoir\";\n"
    static let sampleTable = ["hello": "Bonjour 😀", "bye": "Au revoir"]

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
        var bytes: [UInt8] = []
        if bom { bytes += bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE] }
        for unit in text.utf16 {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    @Test("encodings: UTF-8 with and without BOM, UTF-16 LE/BE with and without BOM", arguments: [
        ("UTF-8", Data(sample.utf8)),
        ("UTF-8 BOM", Data([0xEF, 0xBB, 0xBF] + Array(sample.utf8))),
        ("UTF-16 LE BOM", utf16(sample, bigEndian: false, bom: true)),
        ("UTF-16 BE BOM", utf16(sample, bigEndian: true, bom: true)),
        ("UTF-16 LE", utf16(sample, bigEndian: false, bom: false)),
        ("UTF-16 BE", utf16(sample, bigEndian: true, bom: false)),
    ])
    func encodings(name: String, data: Data) throws {
        #expect(try StringsFile.parse(data) == Self.sampleTable, "\(name)")
    }

    @Test("encoding errors name the line")
    func encodingErrors() throws {
        let invalidUTF8 = Data(Array("\"a\" = \"b\";\n\"c\" = \"".utf8) + [0xFF, 0xFE, 0x22, 0x3B])
        // 0xFF 0xFE at the start would be a BOM; in the middle it is invalid UTF-8.
        let error = try #require(throws: PayloadError.self) { try StringsFile.parse(invalidUTF8, file: "x.strings") }
        #expect(error.code == .encoding)
        #expect(error.location.line == 2)
        #expect(error.location.file == "x.strings")

        let crlf = Data(Array("\"a\" = \"b\";\r\n\r\"c\" = \"".utf8) + [0xC3, 0x28])
        let crlfError = try #require(throws: PayloadError.self) { try StringsFile.parse(crlf) }
        #expect(crlfError.location.line == 3)

        let odd = Data([0xFF, 0xFE, 0x22, 0x00, 0x61])
        let oddError = try #require(throws: PayloadError.self) { try StringsFile.parse(odd) }
        #expect(oddError.code == .encoding)

        let loneSurrogate = Data([0xFF, 0xFE, 0x3D, 0xD8, 0x22, 0x00])
        #expect(throws: PayloadError.self) { try StringsFile.parse(loneSurrogate) }
    }

    @Test("the error description reads file:line:column: reason [code]")
    func errorDescription() throws {
        let error = try #require(throws: PayloadError.self) {
            try StringsFile.parse(Data("\"a\" = \"b\"".utf8), file: "fr.lproj/Localizable.strings")
        }
        #expect(error.description.hasPrefix("fr.lproj/Localizable.strings:1:10: missing ';'"))
        #expect(error.description.hasSuffix("[strings.syntax]"))
    }

    @Test("jsonText sorts keys by code point and escapes JSON")
    func jsonText() throws {
        let source = "\"b\" = \"2\";\n\"a\" = \"x\\\"y\\n/z\";\n\"B\" = \"é\\t\";\n\"ctl\" = \"\\001\";"
        let text = try StringsFile.jsonText(Data(source.utf8))
        #expect(text == """
        {
          "B": "é\\t",
          "a": "x\\"y\\n/z",
          "b": "2",
          "ctl": "\\u0001"
        }
        """)
        // It is valid JSON that reads back to the same table.
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(decoded == (try StringsFile.parse(Data(source.utf8))))
        #expect(try StringsFile.jsonText(Data()) == "{}")
    }

    @Test("jsonText errors name the line")
    func jsonTextError() throws {
        let error = try #require(throws: PayloadError.self) {
            try StringsFile.jsonText(Data("\"a\" = \"b\";\n\"c\" = \"d\"\n".utf8))
        }
        #expect(error.location.line == 2)
    }
}

@Suite("StringsFile: compiled property-list .strings")
struct StringsFilePropertyListTests {
    @Test("binary and XML property lists are read as string tables", arguments: [
        PropertyListSerialization.PropertyListFormat.binary, .xml,
    ])
    func propertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let table = ["hello": "Bonjour", "bye": "Au revoir 😀"]
        let data = try PropertyListSerialization.data(fromPropertyList: table, format: format, options: 0)
        #expect(try StringsFile.parse(data) == table)
    }

    @Test("a property list that is not a dictionary of strings is an error")
    func wrongShape() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        let error = try #require(throws: PayloadError.self) { try StringsFile.parse(data) }
        #expect(error.location.key == "a")
    }
}
