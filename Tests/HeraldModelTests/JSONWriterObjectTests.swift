import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldModel

/// `JSONWriter.object` sorts a few members in place (indices in a stack buffer) and more
/// through a sorted array: both must write the keys in Foundation's `.sortedKeys` order.
@Suite("JSON writer: object members in key order")
struct JSONWriterObjectTests {
    /// Keys that order differently by UTF-8 bytes than by characters or by Unicode scalars,
    /// prefixes of each other, empty, escaped.
    static let keys = [
        "", "a", "ab", "a\u{0}", "A", "Z", "zz", "é", "e\u{301}", "ä", "😀", "\u{FFFD}", "日本", "title", "titles",
        "priority", "owner", "\"", "\\", "a b", "\u{7F}", "_", "0", "10", "9",
    ]

    @Test("random objects of 0 to 24 members, on both sides of the in-place limit, as Foundation writes them")
    func agreesWithFoundation() throws {
        var random = SeededGenerator(seed: 14)
        var sizes = Set<Int>()
        for _ in 0..<3000 {
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...24, using: &random) {
                members[Self.keys.randomElement(using: &random)!] = .integer(Int64.random(in: -99...99, using: &random))
            }
            sizes.insert(members.count)
            var writer = JSONWriter(capacity: 16)
            try writer.value(.object(members))
            let expected = try WireCodec().encodeWithFoundation(JSONValue.object(members))
            #expect(writer.bytes == Array(expected), "\(String(decoding: writer.bytes, as: UTF8.self))")
        }
        #expect(sizes.contains(0) && sizes.contains(JSONWriter.membersSortedInPlace))
        #expect(sizes.contains(JSONWriter.membersSortedInPlace + 1))
    }

    @Test("a member that cannot be written names its key, in a small and in a large object", arguments: [3, 20])
    func errorNamesTheMember(count: Int) {
        var members: [String: JSONValue] = [:]
        for index in 0..<count { members["k\(index)"] = .integer(Int64(index)) }
        members["k1"] = .double(.nan)
        var writer = JSONWriter(capacity: 16)
        do {
            try writer.value(.object(members))
            Issue.record("wrote NaN")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.path == "k1", "\(error.path)")
        }
    }
}
