import Foundation
import HeraldModel
import HeraldTestSupport
import Testing
@testable import HeraldPayload

/// The payload's JSON writer: escaping, numbers, and agreement with `WireCodec`.
@Suite("JSON writer")
struct JSONWriterTests {
    @Test("strings escape quotes, backslashes and control characters; the rest passes as UTF-8")
    func escaping() {
        let text = "a\u{0}\u{1}\u{1F}\u{7F}\u{2028}/\"\\\n\t\r\u{8}\u{C}é😀"
        let expected = #""a\u0000\u0001\u001f"# + "\u{7F}\u{2028}" + #"/\"\\\n\t\r\b\fé😀""#
        #expect(String(decoding: JSONValue.string(text).jsonBytes, as: UTF8.self) == expected)
        #expect(JSONWriter.stringSize(text) == expected.utf8.count)
    }

    @Test("numbers", arguments: [
        (JSONValue.integer(0), "0"), (.integer(-7), "-7"), (.integer(.max), "9223372036854775807"),
        (.integer(.min), "-9223372036854775808"), (.double(3), "3"), (.double(-0.0), "-0"), (.double(2.5), "2.5"),
        (.double(1e20), "1e+20"), (.double(1e-7), "1e-07"), (.double(0.1), "0.1"), (.double(.nan), "null"),
        (.bool(true), "true"), (.null, "null"),
    ])
    func numbers(value: JSONValue, text: String) {
        #expect(String(decoding: value.jsonBytes, as: UTF8.self) == text)
        #expect(JSONWriter.size(of: value) == text.utf8.count)
    }

    static func randomValue(_ generator: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "😀", "e\u{301}", "/", " ", "\u{2028}", "\u{7F}", "日"]
        func text() -> String {
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        switch Int.random(in: 0...(depth > 2 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case 3:
            let double = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &generator))
            return .double(double.isFinite ? double : Double(Int.random(in: -9...9, using: &generator)) / 4)
        case 4: return .string(text())
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) { members[text()] = randomValue(&generator, depth: depth + 1) }
            return .object(members)
        }
    }

    @Test("byte for byte what WireCodec writes, and exactly the measured size")
    func agreesWithWireCodec() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let value = Self.randomValue(&generator)
            let bytes = value.jsonBytes
            #expect(bytes.count == JSONWriter.size(of: value))
            let codec = Array(try WireCodec().encode(value))
            #expect(bytes == codec, "\(String(decoding: bytes, as: UTF8.self)) vs \(String(decoding: codec, as: UTF8.self))")
        }
    }

    @Test("shortening to a byte budget keeps whole characters and adds an ellipsis", arguments: [
        ("hello world", 10, Optional("hello…")),   // "hello…" is 2 + 5 + 3 bytes
        ("hello", 5, nil),                           // room for the quotes and the ellipsis only
        ("hello", 6, "h…"),
        ("héllo", 8, "hé…"),                         // é is 2 bytes: "hél…" would be 9 bytes
        ("👨‍👩‍👧‍👦x", 29, nil),                          // the family is 25 bytes: 2 + 25 + 3 > 29
        ("👨‍👩‍👧‍👦x", 30, "👨‍👩‍👧‍👦…"),
        ("a\"b\"c", 8, "a\"…"),                      // an escaped quote counts 2
        ("\u{1}\u{1}", 14, "\u{1}…"),                // a control character counts 6
    ])
    func shortening(text: String, budget: Int, expected: String?) {
        let shorter = text.shortened(toJSONBytes: budget)
        #expect(shorter == expected)
        if let shorter { #expect(JSONWriter.stringSize(shorter) <= budget) }
    }

    /// The obvious character-by-character version of `shortened(toJSONBytes:)`.
    static func referenceShortened(_ text: String, budget: Int) -> String? {
        let available = budget - JSONWriter.stringSize("…")
        var kept = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.reduce(0) { $0 + JSONWriter.escapedSize($1) }
            if used + size > available { break }
            used += size
            kept.append(character)
        }
        return kept.isEmpty ? nil : kept + "…"
    }

    @Test("shortening agrees with a character-by-character reference on random text")
    func shorteningMatchesReference() {
        var generator = SeededGenerator(seed: 99)
        let pieces = ["a", "é", "e\u{301}", "e\u{301}\u{302}", "👨‍👩‍👧‍👦", "🇫🇷", "🇩🇪", "\"", "\\", "\n", "\u{1}",
                      "\r\n", "🐦", "日", "👍🏽", "\u{200D}", "\u{1F1E6}"]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let budget = Int.random(in: 0...(JSONWriter.stringSize(text) - 1), using: &generator)
            #expect(text.shortened(toJSONBytes: budget) == Self.referenceShortened(text, budget: budget), "\(Array(text.unicodeScalars)) \(budget)")
        }
    }

    @Test("a byte needing an escape is found at every position of an eight-byte word")
    func escapesAtEveryPosition() throws {
        for special in ["\"", "\\", "\u{0}", "\u{1F}", "\n"] {
            for position in 0..<20 {
                var characters = Array(repeating: "x", count: 20)
                characters[position] = special
                let value = JSONValue.string(characters.joined() + "é")
                #expect(value.jsonBytes == Array(try WireCodec().encode(value)), "\(position)")
                #expect(JSONWriter.size(of: value) == value.jsonBytes.count)
            }
        }
    }

    @Test("a writer grows from a tiny buffer mid-string, and a copy never sees the other's writes")
    func growthAndCopies() throws {
        let text = String(repeating: "ab\"\u{1}é😀", count: 40)
        let expected = Array(try WireCodec().encodeWithFoundation(["k": text, "n": "x"]))
        var writer = JSONWriter(capacity: 1)
        writer.beginObject()
        writer.key("k")
        var copy = writer
        writer.string(text)
        writer.key("n")
        writer.string("x")
        writer.endObject()
        #expect(writer.bytes == expected)
        #expect(writer.count == expected.count)
        #expect(writer.withUnsafeBufferPointer { Array($0) } == expected)
        copy.integer(-42)
        copy.endObject()
        #expect(String(decoding: copy.bytes, as: UTF8.self) == #"{"k":-42}"#)
        #expect(writer.bytes == expected)
        var shared = copy
        copy.removeAll()
        copy.null()
        #expect(String(decoding: copy.bytes, as: UTF8.self) == "null")
        #expect(String(decoding: shared.bytes, as: UTF8.self) == #"{"k":-42}"#)
        shared.removeAll()
        shared.bool(false)
        #expect(String(decoding: shared.data, as: UTF8.self) == "false")
    }
}
