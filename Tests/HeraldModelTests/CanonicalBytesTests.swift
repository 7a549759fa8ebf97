import Foundation
import HeraldModel
import Testing

/// `JSONDocument.canonicalBytes`: whatever it accepts, `JSONWriter` writes back byte for
/// byte from the value those bytes hold — the promise that lets the push stage send a
/// notification's payload bytes instead of re-encoding its tree.
@Suite("canonical JSON bytes")
struct CanonicalBytesTests {
    let codec = WireCodec()

    /// The canonical form of `bytes`' value, written by `JSONWriter` from the tree.
    func rewritten(_ bytes: [UInt8]) throws -> [UInt8] {
        var writer = JSONWriter()
        try writer.value(try JSONValue(parsing: Data(bytes)))
        return writer.bytes
    }

    /// Random edits that may or may not keep a document canonical.
    func mutated(_ bytes: [UInt8], _ samples: inout WireSamples) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        let edits: [(String, String)] = [
            (":", ": "), (",", " ,"), ("{", "{ "), ("a", "\\u0061"), ("1", "1.0"), ("0", "-0"), ("1", "01"),
            ("2", "2e0"), ("\"", " \""), ("]", ",]"), ("}", ",}"),
        ]
        let (from, to) = edits.randomElement(using: &samples.random)!
        if let range = text.range(of: from) { text.replaceSubrange(range, with: to) }
        return Array(text.utf8)
    }

    @Test("what it accepts the writer writes back unchanged; writer output is accepted when it has no escape or fraction", arguments: 0..<4)
    func acceptedBytesAreTheWritersBytes(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        var accepted = 0
        var refusedPlain = 0
        for _ in 0..<400 {
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &samples.random) { members[samples.name()] = samples.json() }
            var writer = JSONWriter()
            try writer.value(.object(members))
            for bytes in [writer.bytes, mutated(writer.bytes, &samples)] {
                guard let document = try? JSONDocument(Data(bytes)) else { continue }
                guard let kept = document.canonicalBytes(JSONDocument.root) else {
                    // Only escapes, doubles and 19-digit integers may keep writer output out.
                    if bytes == writer.bytes, Self.isPlain(.object(members)) { refusedPlain += 1 }
                    continue
                }
                #expect(Array(kept) == bytes)
                #expect(try rewritten(bytes) == bytes, "\(String(decoding: bytes, as: UTF8.self))")
                accepted += 1
            }
        }
        #expect(accepted > 100)
        #expect(refusedPlain == 0)
    }

    /// Whether `JSONWriter` writes `value` without an escape, a double or a 19-digit integer.
    static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .bool: true
        case .integer(let number): number.magnitude < 1_000_000_000_000_000_000
        case .double: false
        case .string(let text): !text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        case .array(let elements): elements.allSatisfy(isPlain)
        case .object(let members): members.allSatisfy { isPlain(.string($0.key)) && isPlain($0.value) }
        }
    }

    @Test("non-canonical documents are refused", arguments: [
        #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #"{"a": 1}"#, #"{"a":[ 1]}"#, #"{"a":1,}"#, #"{"a":"\u0062"}"#,
        #"{"a":1.5}"#, #"{"a":-0}"#, #"{"a":01}"#, #"{"a":1e2}"#, #"{"a":1234567890123456789}"#, #"{"a":[1 ,2]}"#,
    ])
    func refused(_ text: String) throws {
        let document = try JSONDocument(Data(text.utf8))
        #expect(document.canonicalBytes(JSONDocument.root) == nil)
    }

    @Test("a notification's payload as compose writes it is kept as bytes and written back unchanged", arguments: 0..<2)
    func notificationPayloadKept(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        var kept = 0
        for _ in 0..<100 {
            let notification = samples.completeNotification()
            let bytes = try codec.encode(notification)
            let decoded = try codec.decode(HeraldNotification.self, from: bytes)
            #expect(decoded == notification)
            #expect(try codec.encode(decoded) == bytes)
            if decoded.apns?.encodedPayload != nil { kept += 1 }
        }
        #expect(kept > 0)
    }

    @Test("a payload with whitespace is read as a tree, to the same value")
    func spacedPayloadReadAsTree() throws {
        var samples = WireSamples(seed: 1)
        var notification = samples.completeNotification()
        notification.apns = APNsPush(pushType: .alert, priority: .immediate, payload: ["aps": ["alert": "x"]])
        let compact = try codec.encode(notification)
        let text = String(decoding: compact, as: UTF8.self).replacingOccurrences(of: #""payload":{"#, with: #""payload": { "#)
        let decoded = try codec.decode(HeraldNotification.self, from: Data(text.utf8))
        let reference = try codec.decodeWithFoundation(HeraldNotification.self, from: Data(text.utf8))
        #expect(decoded == reference)
        #expect(text != String(decoding: compact, as: UTF8.self))
        #expect(decoded.apns?.encodedPayload == nil)
    }
}
