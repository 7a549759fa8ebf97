import Foundation
import Testing

@testable import HeraldModel

@Suite("NotificationRead")
struct NotificationReadTests {
    static let sample = #"""
        {"recipient": "_u1", "containerIdentifier": "iCloud.x", "notificationIDs": ["5b1c", "7d2e"], "readAt": 1795300000000}
        """#

    @Test("the documented example decodes and round-trips with sorted keys")
    func example() throws {
        let read = try Fixtures.decode(NotificationRead.self, Self.sample)
        #expect(read == NotificationRead(
            recipient: "_u1", containerIdentifier: "iCloud.x", notificationIDs: ["5b1c", "7d2e"], readAt: 1_795_300_000_000))
        #expect(read.partitionKey == "_u1")
        _ = try Fixtures.roundTrip(read)
        #expect(String(decoding: try Fixtures.codec.encode(read), as: UTF8.self)
            == #"{"containerIdentifier":"iCloud.x","notificationIDs":["5b1c","7d2e"],"readAt":1795300000000,"recipient":"_u1"}"#)
    }

    @Test("400 IDs are accepted")
    func maximum() throws {
        let ids = (0..<NotificationRead.maximumNotificationIDs).map { JSONValue.string("n\($0)") }
        let json = try Fixtures.edit(Self.sample, "notificationIDs", .array(ids))
        #expect(try Fixtures.decode(NotificationRead.self, json).notificationIDs.count == 400)
    }

    static let malformed: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("recipient", "", .invalidValue, "recipient"),
        ("recipient", nil, .missingValue, "recipient"),
        ("containerIdentifier", "", .invalidValue, "containerIdentifier"),
        ("containerIdentifier", 3, .typeMismatch, "containerIdentifier"),
        ("notificationIDs", nil, .missingValue, "notificationIDs"),
        ("notificationIDs", .array([]), .invalidValue, "notificationIDs"),
        ("notificationIDs", .array((0...400).map { .string("n\($0)") }), .invalidValue, "notificationIDs"),
        ("notificationIDs", .array(["a", ""]), .invalidValue, "notificationIDs[1]"),
        ("notificationIDs", "a", .typeMismatch, "notificationIDs"),
        ("readAt", -1, .invalidValue, "readAt"),
        ("readAt", 1.5, .typeMismatch, "readAt"),
        ("readAt", nil, .missingValue, "readAt"),
    ]

    @Test("malformed reads are errors naming the offending field", arguments: malformed)
    func malformedRead(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        let json = try Fixtures.edit(Self.sample, path, value)
        let error = try #require(Fixtures.decodeError(NotificationRead.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }
}
