import Foundation
import Testing

@testable import HeraldModel

@Suite("WireCodec")
struct WireCodecTests {
    @Test("bytes that are not JSON are a malformedJSON error without a path", arguments: [
        "", "{", "not json", #"{"changeID": "c"#, "\u{FEFF}{]",
    ])
    func malformedJSON(_ text: String) throws {
        let error = try #require(Fixtures.decodeError(RecordChange.self, text))
        #expect(error.code == .malformedJSON)
        #expect(error.path.isEmpty)
    }

    @Test("a fractional number where Foundation expects an integer is a type mismatch, not bad JSON")
    func fractionalInteger() throws {
        let error = try #require(Fixtures.decodeError(Int64.self, "1.5"))
        #expect(error.code == .typeMismatch)
    }

    @Test("a JSON value of the wrong kind at the top is a type mismatch")
    func wrongTopLevel() throws {
        let error = try #require(Fixtures.decodeError(RecordChange.self, "[1]"))
        #expect(error.code == .typeMismatch)
        #expect(error.reason.contains("an object"), "\(error)")
    }

    @Test("encoding is deterministic: sorted keys, slashes not escaped, same bytes every time")
    func deterministic() throws {
        let change = try Fixtures.decode(RecordChange.self, Fixtures.recordChange)
        let first = try Fixtures.codec.encode(change)
        for _ in 0..<5 { #expect(try Fixtures.codec.encode(change) == first) }
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix(#"{"changeID":"c-0001","container":"iCloud.com.example.notes","database":"private","fields":{"priority""#))
        #expect(!text.contains(#"\/"#))
        let withSlash = try Fixtures.codec.encode(JSONValue.string("a/b"))
        #expect(String(decoding: withSlash, as: UTF8.self) == #""a/b""#)
    }

    @Test("a writer reused across messages gives each the bytes of a fresh encode, also after a failed one")
    func reusedWriter() throws {
        let change = try Fixtures.decode(RecordChange.self, Fixtures.recordChange)
        let subscription = try Fixtures.decode(Subscription.self, Fixtures.subscription)
        var broken = change
        broken.fields["x"] = .double(.nan)
        var writer = JSONWriter(capacity: 16)
        #expect(try Fixtures.codec.encode(change, reusing: &writer) == Fixtures.codec.encode(change))
        #expect(throws: ModelError.self) { try Fixtures.codec.encode(broken, reusing: &writer) }
        #expect(try Fixtures.codec.encode(subscription, reusing: &writer) == Fixtures.codec.encode(subscription))
        #expect(try Fixtures.codec.encode(change, reusing: &writer) == Fixtures.codec.encode(change))
    }

    @Test("a non-finite double cannot be encoded and the error says where")
    func nonFinite() throws {
        do {
            _ = try Fixtures.codec.encode(["x": JSONValue.double(.infinity)])
            Issue.record("encoded infinity")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.path == "x")
        }
    }

    @Test("error paths render members with dots and indices in brackets")
    func pathRendering() {
        let path: [any CodingKey] = [WireKey("query"), WireKey("filterBy"), WireKey(index: 0), WireKey("comparator")]
        #expect(ModelError.render(path) == "query.filterBy[0].comparator")
        #expect(ModelError(.invalidValue, "bad", at: path).description == "query.filterBy[0].comparator: bad")
        #expect(ModelError(.malformedJSON, "bad").description == "bad")
    }
}
