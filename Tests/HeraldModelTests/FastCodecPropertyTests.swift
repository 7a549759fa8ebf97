import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

/// The fast readers and writers (`WireDecodable`, `WireEncodable`) against the Codable path
/// through Foundation: random values must encode to identical bytes, and random valid,
/// mutated or malformed documents must decode to the same value or fail with the same error
/// code at the same path.
@Suite("fast codec against Foundation's Codable")
struct FastCodecPropertyTests {
    let codec = WireCodec()

    enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case failure(ModelError.Code, String)

        var description: String {
            switch self {
            case .value(let value): "value \(String(describing: value).prefix(600))"
            case .failure(let code, let path): "\(code.rawValue) at \"\(path)\""
            }
        }
    }

    func outcome<T: Equatable>(_ body: () throws(ModelError) -> T) -> Outcome<T> {
        do { return .value(try body()) } catch { return .failure(error.code, error.path) }
    }

    /// Compares both decoders on `bytes`; returns a description of a difference.
    func compare<T: WireDecodable & Equatable>(_ type: T.Type, _ bytes: Data) -> String? {
        let fast = outcome { () throws(ModelError) in try codec.decode(T.self, from: bytes) }
        let reference = outcome { () throws(ModelError) in try codec.decodeWithFoundation(T.self, from: bytes) }
        guard fast != reference else { return nil }
        // Foundation decodes a dictionary (a record's fields, a schedule's userInfo) in hash order, which changes
        // from run to run: with two bad fields either may be reported. Same dictionary, both failing: alike.
        // A field's unreadable member name is a malformedJSON without a path.
        if case .failure(let fastCode, let fastPath) = fast, case .failure(let referenceCode, let referencePath) = reference {
            let fastRecord = Self.fieldsPrefix(fastPath)
            let referenceRecord = Self.fieldsPrefix(referencePath)
            if fastRecord != nil, fastRecord == referenceRecord { return nil }
            if fastCode == .malformedJSON, referenceRecord != nil { return nil }
            if referenceCode == .malformedJSON, fastRecord != nil { return nil }
        }
        return "fast \(fast), Foundation \(reference) for \(String(decoding: bytes, as: UTF8.self).debugDescription)"
    }

    /// The path up to a member of a `fields`, `previousFields` or `userInfo` dictionary, if `path` is below one.
    static func fieldsPrefix(_ path: String) -> String? {
        for name in ["previousFields", "fields", "userInfo"] {
            if let range = path.range(of: name), path[range.upperBound...].first.map({ $0 == "." || $0 == "[" }) == true {
                return String(path[..<range.upperBound])
            }
        }
        return nil
    }

    /// Valid documents, byte mutations and JSON-level replacements of `value`'s encoding.
    func check<T: WireDecodable & Encodable & Equatable>(
        _ value: T, _ samples: inout WireSamples, mutations: Int, differences: inout [String]
    ) throws {
        try check(T.self, try codec.encodeWithFoundation(value), &samples, mutations: mutations, differences: &differences)
    }

    /// Valid documents, byte mutations and JSON-level replacements of `bytes`, read as `T`.
    func check<T: WireDecodable & Equatable>(
        _ type: T.Type, _ bytes: Data, _ samples: inout WireSamples, mutations: Int, differences: inout [String]
    ) throws {
        if let difference = compare(T.self, bytes) { differences.append(difference) }
        let document = try codec.decode(JSONValue.self, from: bytes)
        let paths = document.allPaths()
        for _ in 0..<mutations {
            var mutated = [UInt8](bytes)
            switch Int.random(in: 0..<6, using: &samples.random) {
            case 5:
                // Foundation also reads UTF-16 and UTF-32 documents.
                let encodings: [String.Encoding] = [.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16]
                let text = String(decoding: bytes, as: UTF8.self)
                mutated = [UInt8](text.data(using: encodings.randomElement(using: &samples.random)!)!)
                if samples.chance(30) { mutated.removeLast() }
            case 0, 1:
                let path = paths.randomElement(using: &samples.random)!
                let replacement: JSONValue? = samples.chance(20) ? nil : samples.json()
                mutated = [UInt8](try codec.encodeWithFoundation(document.replacing(path[...], with: replacement)))
            case 2:
                let interesting = Array("\"\\{}[],:-01e.+ ntfu".utf8) + [0xFF, 0x01, 0xC3]
                mutated[Int.random(in: 0..<mutated.count, using: &samples.random)] = interesting.randomElement(using: &samples.random)!
            case 3:
                mutated.remove(at: Int.random(in: 0..<mutated.count, using: &samples.random))
            default:
                mutated = Array(mutated.prefix(Int.random(in: 0..<mutated.count, using: &samples.random)))
            }
            if let difference = compare(T.self, Data(mutated)) { differences.append(difference) }
        }
    }

    /// `count` random values from `make`: identical bytes from both encoders, and each
    /// value's encoding with `mutations` mutations decoded alike by both decoders.
    func holds<T: WireDecodable & WireEncodable & Equatable>(
        seed: UInt64, count: Int, mutations: Int, _ make: (inout WireSamples) -> T
    ) throws {
        var samples = WireSamples(seed: seed)
        var differences: [String] = []
        for _ in 0..<count {
            let value = make(&samples)
            #expect(try codec.encode(value) == codec.encodeWithFoundation(value))
            try check(value, &samples, mutations: mutations, differences: &differences)
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(3))")
    }

    @Test("record changes: same bytes, same values, same errors", arguments: 0..<4)
    func recordChanges(seed: UInt64) throws {
        try holds(seed: seed, count: 150, mutations: 12) { $0.recordChange() }
    }

    @Test("matches: same bytes, same values, same errors", arguments: 0..<4)
    func matches(seed: UInt64) throws {
        try holds(seed: 100 + seed, count: 100, mutations: 12) { $0.match() }
    }

    @Test("matches in the full form of earlier versions: the whole match back, same values, same errors", arguments: 0..<2)
    func fullFormMatches(seed: UInt64) throws {
        var samples = WireSamples(seed: 150 + seed)
        var differences: [String] = []
        var decodedWhole = 0
        for _ in 0..<100 {
            let match = samples.match()
            let bytes = try match.fullFormJSON()
            if case .value(let decoded) = outcome({ () throws(ModelError) in try codec.decode(Match.self, from: bytes) }) {
                #expect(decoded == match)
                decodedWhole += 1
            }
            try check(Match.self, bytes, &samples, mutations: 12, differences: &differences)
        }
        #expect(decodedWhole > 50)
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(3))")
    }

    @Test("subscriptions: same bytes, same values, same errors")
    func subscriptions() throws {
        try holds(seed: 7, count: 200, mutations: 10) { $0.subscription() }
    }

    @Test("badge counts: same bytes, same values, same errors")
    func badgeCounts() throws {
        try holds(seed: 300, count: 200, mutations: 12) { $0.badgeCount() }
    }

    @Test("notification reads: same bytes, same values, same errors")
    func notificationReads() throws {
        try holds(seed: 400, count: 200, mutations: 12) { $0.notificationRead() }
    }

    @Test("schedule firings: same bytes, same values, same errors", arguments: 0..<2)
    func scheduledFirings(seed: UInt64) throws {
        try holds(seed: 500 + seed, count: 150, mutations: 12) { $0.scheduledFiring() }
    }

    @Test("notifications: same bytes, same values, same errors", arguments: 0..<4)
    func notificationsRead(seed: UInt64) throws {
        try holds(seed: 600 + seed, count: 150, mutations: 12) { $0.notification() }
    }

    @Test("notifications of every type with the members it needs: read alike by both decoders", arguments: 0..<2)
    func completeNotificationsRead(seed: UInt64) throws {
        try holds(seed: 700 + seed, count: 150, mutations: 12) { $0.completeNotification() }
    }

    @Test("notifications encode to the same bytes", arguments: 0..<4)
    func notifications(seed: UInt64) throws {
        var samples = WireSamples(seed: 200 + seed)
        for _ in 0..<300 {
            let notification = samples.notification()
            #expect(try codec.encode(notification) == codec.encodeWithFoundation(notification))
        }
    }

    @Test("non-finite doubles and bad lists fail to encode on both paths with the same code")
    func encodingFailures() throws {
        var samples = WireSamples(seed: 1)
        var change = samples.recordChange()
        for value in [FieldValue.double(.nan), .double(.infinity), .list([.int64(1)], of: .string)] {
            change.fields = ["x": value]
            let fast = outcome { () throws(ModelError) in try codec.encode(change) }
            let reference = outcome { () throws(ModelError) in try codec.encodeWithFoundation(change) }
            #expect(fast == reference)
        }
    }

    @Test("two bad fields, one with an unreadable member name: both paths reject the change (FuzzWireCodec finding)")
    func twoBadFields() throws {
        var bytes = [UInt8](#"{"changeID":"c","container":"c","database":"private","zoneID":{"zoneName":"z","ownerRecordName":"o"},"recordType":"T","recordName":"r","kind":"create","fields":{"title":{"value":"x","XXXX":"STRING"},"tags":{"value":["a\u00zz"],"type":"STRING_LIST"}},"timestamp":1}"#.utf8)
        let name = bytes.indices.first { bytes[$0...].starts(with: Array("XXXX".utf8)) }!
        bytes.replaceSubrange(name..<name + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let input = Data(bytes)
        #expect(throws: ModelError.self) { try codec.decode(RecordChange.self, from: input) }
        #expect(throws: ModelError.self) { try codec.decodeWithFoundation(RecordChange.self, from: input) }
        #expect(compare(RecordChange.self, input) == nil)
    }

    @Test("UTF-16 and UTF-32 documents are converted as Foundation converts them (FuzzWireCodec findings)", arguments: [
        [0x00, 0x22, 0x00, 0x00, 0x00, 0x22], [0x22, 0x00, 0x00, 0x00, 0x00, 0x22], [0x00, 0x22, 0x00, 0x61, 0x00, 0x22],
        [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], [0x7B, 0x00, 0x7D, 0x00, 0x00, 0x00], [0x32, 0x00], [0x00, 0x32],
        [0x22, 0x00, 0x22], [0x32, 0x00, 0x20], [0x7B, 0x00],
    ] as [[UInt8]])
    func wideDocuments(bytes: [UInt8]) {
        #expect(compare(RecordChange.self, Data(bytes)) == nil)
        #expect(compare(Match.self, Data(bytes)) == nil)
    }

    @Test("random bytes are rejected or read the same by both paths")
    func randomBytes() {
        var samples = WireSamples(seed: 99)
        let alphabet = Array("{}[]\":,-0123456789.eE+ \\/ntrufalsbxyz".utf8) + [0x80, 0xFF, 0x00, 0x0A]
        var differences: [String] = []
        for _ in 0..<3000 {
            let count = Int.random(in: 0...24, using: &samples.random)
            let bytes = Data((0..<count).map { _ in alphabet.randomElement(using: &samples.random)! })
            if let difference = compare(RecordChange.self, bytes) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(3))")
    }
}

extension JSONValue {
    /// Every path to a value in this document (the root excluded).
    func allPaths(prefix: [WireKey] = []) -> [[WireKey]] {
        switch self {
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in
                let path = prefix + [WireKey(index: index)]
                return [path] + element.allPaths(prefix: path)
            }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                let path = prefix + [WireKey(key)]
                return [path] + member.allPaths(prefix: path)
            }
        default:
            return []
        }
    }

    /// This value with the value at `path` replaced, or removed when `replacement` is nil.
    func replacing(_ path: ArraySlice<WireKey>, with replacement: JSONValue?) -> JSONValue {
        guard let first = path.first else { return replacement ?? .null }
        switch self {
        case .array(var elements):
            guard let index = first.intValue, elements.indices.contains(index) else { return self }
            if path.count == 1, replacement == nil {
                elements.remove(at: index)
            } else {
                elements[index] = elements[index].replacing(path.dropFirst(), with: replacement)
            }
            return .array(elements)
        case .object(var members):
            guard let member = members[first.stringValue] else { return self }
            members[first.stringValue] = path.count == 1 && replacement == nil
                ? nil : member.replacing(path.dropFirst(), with: replacement)
            return .object(members)
        default:
            return self
        }
    }
}
