import Foundation
import HeraldTestSupport
import Testing
@testable import HeraldPayload

/// Hostile and random input never crashes: it parses, throws a ``PayloadError``, or renders.
@Suite("Robustness: random and hostile input")
struct RobustnessTests {
    static let pieces = [
        "\"", "'", "\\", "=", ";", "/", "*", "//", "/*", "*/", "\n", "\r", " ", "a", "Z", "9", "$", ":", ".", "-",
        "\\U", "\\UD83D", "\\UDE00", "\\U00e9", "\\0", "\\777", "\\n", "é", "😀", "\u{0}", "#", "%", "%@", "%1$",
        "%#@", "@", "%d", "%.", "%99999999$@", "%lld", "%*", "%0$", "%%", "%q", "%5.2f", "%c", "%#@v@",
    ]

    static func randomText(_ generator: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...24, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
    }

    @Test("random .strings text parses or throws")
    func randomStrings() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3000 {
            let text = Self.randomText(&generator)
            do {
                _ = try StringsFile.parse(Data(text.utf8))
            } catch let error as PayloadError {
                #expect(error.location.line != nil || error.code == .encoding, "\(error)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test("random bytes parse or throw")
    func randomBytes() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? StringsFile.parse(Data(bytes))
            _ = try? StringsFile.parse(Data([0xFF, 0xFE] + bytes))
            _ = try? StringsFile.parse(Data([0xFE, 0xFF] + bytes))
        }
    }

    @Test("random format strings render with any arguments")
    func randomFormats() {
        var generator = SeededGenerator(seed: 1)
        let arguments: [[FormatArgument]] = [
            [], [.string("s")], [.integer(.min), .double(.nan), .timestamp(.max)],
            [.double(1e308), .integer(.max), .string(""), .timestamp(.min)],
        ]
        for _ in 0..<3000 {
            let format = FormatString(Self.randomText(&generator))
            for list in arguments {
                _ = format.render(list, variable: { $0.argument?.text ?? "" })
            }
            _ = format.problems(argumentCount: 1)
        }
    }

    @Test("self-referencing plural variables stop")
    func selfReference() throws {
        let form = String(repeating: "%#@v@", count: 20)
        let entry = LocalizedEntry(body: .text("%#@v@"), variables: [
            "v": PluralVariable(name: "v", valueType: "d", forms: [.other: form]),
        ])
        let rendered = entry.render([.integer(1)], rules: PluralRules(localeIdentifier: "en"))
        #expect(rendered.text.isEmpty)
    }

    @Test("extreme numbers select a plural form")
    func extremeNumbers() {
        let forms: [PluralCategory: String] = [.one: "one", .many: "many", .other: "other"]
        for argument in [FormatArgument.integer(.min), .integer(.max), .double(.greatestFiniteMagnitude),
                         .double(.leastNonzeroMagnitude), .double(-0.0), .timestamp(.min)] {
            let entry = LocalizedEntry(body: .plural(PluralVariable(name: "p", valueType: "g", argumentNumber: 1, forms: forms)))
            for language in ["fr", "ru", "ar", "he", "pl", "cs"] {
                _ = entry.render([argument], rules: PluralRules(localeIdentifier: language))
            }
        }
    }
}
