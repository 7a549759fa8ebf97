import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldModel

@Suite("Match and name-based notification IDs")
struct MatchTests {
    @Test("SHA-1 matches the FIPS 180 test vectors", arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
        (String(repeating: "a", count: 1_000_000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        (String(repeating: "x", count: 55), "cef734ba81a024479e09eb5a75b6ddae62e6abf1"),
        (String(repeating: "x", count: 56), "901305367c259952f4e7af8323f480d59f81335b"),
        (String(repeating: "x", count: 63), "0ddc4e0cccd9a12850deb5abb0853a4425559fec"),
        (String(repeating: "x", count: 64), "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163"),
        (String(repeating: "x", count: 65), "78c741ddc482e4cdf8c474a0876347a0905b6233"),
    ])
    func sha1(message: String, hex: String) {
        let digest = SHA1.digest(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(digest == hex)
    }

    @Test("SHA-1 of a message given in two parts is the digest of the whole, at every split and length")
    func sha1TwoParts() {
        for length in 0..<140 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let whole = SHA1.digest(message)
            for split in Set([0, length / 3, length / 2, max(0, length - 1), length]) {
                let words = message[..<split].withUnsafeBytes { first in
                    message[split...].withUnsafeBytes { second in SHA1.words(of: first, second) }
                }
                let bytes = [words.0, words.1, words.2, words.3, words.4].flatMap { word in
                    (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
                }
                #expect(bytes == whole, "length \(length), split at \(split)")
            }
        }
    }

    /// RFC 9562 Appendix A.4 (and Python's `uuid.uuid5`) give `…-95e1-2665a8aea6a2` for
    /// DNS + "www.example.com"; the `…-b9e0-5d2b3f6d5f1e` sometimes quoted is not what
    /// SHA-1 yields. The Herald vectors were computed with Python's `uuid.uuid5`.
    @Test("UUIDv5 matches RFC 9562 and an independent implementation", arguments: [
        (UUID.dnsNamespace, "www.example.com", "2ed6657d-e927-568b-95e1-2665a8aea6a2"),
        (UUID.heraldNamespace, "c-0001/urgent-notes", "142664a0-c4dd-5ad3-8729-8d9d983877ff"),
        (UUID.heraldNamespace, "ü/🐦", "1c60d243-aea9-5fa9-affe-a2429ea4ca50"),
    ])
    func rfcVector(namespace: UUID, name: String, expected: String) {
        #expect(UUID(version5: name, namespace: namespace).lowercasedString == expected)
    }

    @Test("the wire form of a UUID is Foundation's uuidString in lower case")
    func lowercasedString() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<500 {
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            let uuid = UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            #expect(uuid.lowercasedString == uuid.uuidString.lowercased())
        }
    }

    @Test("the namespaces are the documented ones")
    func namespaces() {
        #expect(UUID.heraldNamespace.uuidString.lowercased() == "c2a9f3d8-6f1e-4b7a-9d0c-5e8b1a2f4c60")
        #expect(UUID.dnsNamespace.uuidString.lowercased() == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    }

    @Test("notification IDs are deterministic, lower-case, version 5 and distinct per change, owner and ID")
    func notificationID() {
        let id = Match.notificationID(changeID: "c-0001", owner: "_u1", subscriptionID: "urgent-notes")
        #expect(id == Match.notificationID(changeID: "c-0001", owner: "_u1", subscriptionID: "urgent-notes"))
        #expect(id == id.lowercased())
        #expect(UUID(uuidString: id) != nil)
        #expect(Array(id)[14] == "5")
        #expect(id != Match.notificationID(changeID: "c-0001", owner: "_u1", subscriptionID: "other"))
        #expect(id != Match.notificationID(changeID: "c-0002", owner: "_u1", subscriptionID: "urgent-notes"))
        #expect(id != Match.notificationID(changeID: "c-0001", owner: "_u2", subscriptionID: "urgent-notes"),
                "two users' subscriptions of the same ID get different IDs for the same change")
        #expect(id == UUID(version5: "c-0001/_u1/urgent-notes", namespace: .heraldNamespace).lowercasedString)
    }

    @Test("a match written before per-user IDs (ID from changeID/subscriptionID) still decodes")
    func legacyNotificationID() throws {
        var match = try Self.sample().slimmed()
        #expect(match.legacyNotificationID == "142664a0-c4dd-5ad3-8729-8d9d983877ff")
        #expect(match.notificationID != match.legacyNotificationID)
        match.notificationID = match.legacyNotificationID
        let decoded = try Fixtures.roundTrip(match)
        #expect(decoded.notificationID == "142664a0-c4dd-5ad3-8729-8d9d983877ff")
    }

    static func sample() throws -> Match {
        Match(
            recipient: "_u1", notificationType: .query, queryNotificationReason: .recordUpdated,
            subscription: try Fixtures.decode(Subscription.self, Fixtures.subscription),
            change: try Fixtures.decode(RecordChange.self, Fixtures.recordChange))
    }

    @Test("a match travels slim: no query or firesOn, only the fields its notification reads, no previous fields")
    func slimForm() throws {
        let match = try Self.sample()
        #expect(match.partitionKey == "_u1")
        let slim = match.slimmed()
        #expect(slim.subscription.query == nil)
        #expect(slim.subscription.firesOn.isEmpty)
        #expect(slim.subscription.notificationInfo == match.subscription.notificationInfo)
        #expect(slim.change.fields == ["title": .string("Groceries")])
        #expect(slim.change.previousFields == nil)
        #expect(slim.change.recordName == "note-42")
        #expect(slim.change.originDevice == "d-77")
        let bytes = try Fixtures.codec.encode(match)
        #expect(try Fixtures.codec.decode(Match.self, from: bytes) == slim)
        #expect(try Fixtures.roundTrip(slim) == slim)
        #expect(try bytes.count < match.fullFormJSON().count)
        #expect(slim.notificationID == Match.notificationID(changeID: "c-0001", owner: "_u1", subscriptionID: "urgent-notes"))
    }

    @Test("a match in the full form of earlier versions (no form) still decodes whole, and is re-encoded slim")
    func fullForm() throws {
        let match = try Self.sample()
        let decoded = try Fixtures.codec.decode(Match.self, from: match.fullFormJSON())
        #expect(decoded == match)
        #expect(try Fixtures.codec.encode(decoded) == Fixtures.codec.encode(match.slimmed()))
    }

    static let malformed: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("recipient", "", .invalidValue, "recipient"),
        ("notificationID", "5b1c0000-0000-5000-8000-000000000000", .invalidValue, "notificationID"),
        ("queryNotificationReason", nil, .missingValue, "queryNotificationReason"),
        ("notificationType", "readNotification", .invalidValue, "queryNotificationReason"),
        ("change.kind", "upsert", .unknownValue, "change.kind"),
        ("change.fields.title.value", 5, .typeMismatch, "change.fields.title.value"),
        ("form", 3, .unknownValue, "form"),
        ("form", "2", .typeMismatch, "form"),
        ("subscription.ownerRecordName", "", .invalidValue, "subscription.ownerRecordName"),
        ("subscription.subscriptionType", "zone", .invalidValue, "subscription.subscriptionType"),
        ("subscription.notificationInfo.desiredKeys", "title", .typeMismatch, "subscription.notificationInfo.desiredKeys"),
    ]

    @Test("malformed slim matches are errors naming the offending field", arguments: malformed)
    func malformedMatch(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        var sample = try Self.sample()
        if path == "subscription.subscriptionType" { sample.subscription.database = .public }
        let json = try Fixtures.edit(String(decoding: Fixtures.codec.encode(sample), as: UTF8.self), path, value)
        let error = try #require(Fixtures.decodeError(Match.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }

    static let malformedFullForm: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("recipient", "", .invalidValue, "recipient"),
        ("change.fields.priority.value", "five", .typeMismatch, "change.fields.priority.value"),
        ("subscription.query", nil, .missingValue, "subscription.query"),
        ("subscription.query.filterBy", [["comparator": "LIKE", "fieldName": "f", "fieldValue": ["value": 1]]], .unknownValue, "subscription.query.filterBy[0].comparator"),
        ("subscription.query.predicate", nil, .invalidValue, "subscription.query.arguments"),
    ]

    @Test("malformed full-form matches are errors naming the offending field", arguments: malformedFullForm)
    func malformedFullFormMatch(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        let json = try Fixtures.edit(String(decoding: Self.sample().fullFormJSON(), as: UTF8.self), path, value)
        let error = try #require(Fixtures.decodeError(Match.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }
}
