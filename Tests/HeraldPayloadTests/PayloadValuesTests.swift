import Foundation
import HeraldModel
import Testing
@testable import HeraldPayload

/// Record values in payloads: renderings, the 100-character cut, what is left out and reported.
@Suite("Payload values: renderings, cuts and exclusions")
struct PayloadValuesTests {
    typealias F = PayloadFixtures

    @Test("argument texts per type", arguments: [
        (FieldValue.string("Léa"), "Léa"),
        (.int64(-42), "-42"),
        (.double(2.5), "2.5"),
        (.double(3), "3"),
        (.double(1e20), "1e+20"),
        (.double(0.1), "0.1"),
        (.timestamp(1_795_300_000_000), "2026-11-21T22:26:40Z"),
        (.timestamp(1_795_300_000_123), "2026-11-21T22:26:40.123Z"),
        (.reference(RecordReference(recordName: "note-7")), "note-7"),
        (.location(Location(latitude: 37.33, longitude: -122.03, altitude: 10)), "37.33,-122.03"),
        (.list([.int64(1), .int64(2)], of: .int64), "1, 2"),
        (.list([.string("a"), .string("b c")], of: .string), "a, b c"),
        (.list([], of: .string), ""),
    ])
    func argumentTexts(value: FieldValue, text: String) {
        #expect(value.localizationArgument()?.text == text)
    }

    @Test("numbers stay typed for formatting: %d and %.1f see numbers")
    func typedArguments() {
        #expect(FieldValue.int64(5).localizationArgument() == .integer(5))
        #expect(FieldValue.double(2.25).localizationArgument() == .double(2.25))
        #expect(FieldValue.timestamp(7).localizationArgument() == .timestamp(7))
    }

    @Test("desired-key JSON per type", arguments: [
        (FieldValue.string("Jay"), JSONValue.string("Jay")),
        (.int64(9), .integer(9)),
        (.double(-0.5), .double(-0.5)),
        (.timestamp(1_795_300_000_123), .integer(1_795_300_000_123)),
        (.reference(RecordReference(recordName: "r")), .string("r")),
        (.location(Location(latitude: 1.5, longitude: 2)), JSONValue.object(["latitude": 1.5, "longitude": 2.0])),
        (.list([.double(1.5), .double(2)], of: .double), JSONValue.array([1.5, 2.0])),
    ])
    func desiredKeyJSON(value: FieldValue, json: JSONValue) {
        #expect(value.desiredKeyValue() == json)
    }

    @Test("assets, bytes, their lists and non-finite doubles never enter a payload", arguments: [
        FieldValue.asset(AssetReference(fileChecksum: "abc", size: 10)),
        .bytes(Data([1, 2, 3])),
        .list([.bytes(Data([1]))], of: .bytes),
        .list([.asset(AssetReference(fileChecksum: "abc", size: 1))], of: .assetID),
        .list([], of: .assetID),
    ])
    func neverInPayload(value: FieldValue) {
        #expect(value.localizationArgument() == nil)
        #expect(value.desiredKeyValue() == nil)
        #expect(!value.isPayloadType)
        #expect(FieldValue.double(.nan).desiredKeyValue() == nil)
        #expect(FieldValue.double(.infinity).desiredKeyValue() == nil)
    }

    static let cutCases: [(String, String)] = [
        // A family emoji is one character of 7 scalars (25 UTF-8 bytes).
        (String(repeating: "a", count: 99) + "👨‍👩‍👧‍👦" + "tail", String(repeating: "a", count: 99) + "👨‍👩‍👧‍👦"),
        // A flag is two regional indicators; a cut between them would change the flag.
        (String(repeating: "b", count: 99) + "🇫🇷🇩🇪", String(repeating: "b", count: 99) + "🇫🇷"),
        // A base letter with three combining marks stays whole.
        (String(repeating: "c", count: 99) + "e\u{301}\u{302}\u{323}z", String(repeating: "c", count: 99) + "e\u{301}\u{302}\u{323}"),
        (String(repeating: "🐦", count: 150), String(repeating: "🐦", count: 100)),
        ("\r\n" + String(repeating: "x", count: 120), "\r\n" + String(repeating: "x", count: 99)),
        (String(repeating: "y", count: 100), String(repeating: "y", count: 100)),
        ("short", "short"),
    ]

    @Test("strings over 100 characters are cut at a grapheme boundary", arguments: cutCases)
    func graphemeCut(input: String, expected: String) {
        let cut = input.cut(toCharacters: 100)
        #expect(cut == expected)
        #expect(cut.count == min(input.count, 100))
        #expect(input.hasPrefix(cut))
        // Valid UTF-8 that decodes back to the same characters.
        #expect(String(decoding: Array(cut.utf8), as: UTF8.self) == cut)
        #expect(FieldValue.string(input).localizationArgument()?.text == expected)
        #expect(FieldValue.string(input).desiredKeyValue() == .string(expected))
    }

    @Test("the cut applies to arguments, desired keys and the notification alike")
    func cutInNotification() throws {
        let long = String(repeating: "é", count: 150)
        let info = NotificationInfo(alertLocalizationKey: "K", alertLocalizationArgs: ["body"], desiredKeys: ["body"])
        let composed = try F.compose(F.match(info, change: F.change(fields: ["body": .string(long)])))
        let cut = String(repeating: "é", count: 100)
        #expect(composed.notification.alertLocalizationArgs == [cut])
        #expect(composed.notification.recordFields == ["body": .string(cut)])
        #expect(F.text(composed).contains(#""loc-args":["\#(cut)"]"#))
        #expect(F.text(composed).contains(#""af":{"body":"\#(cut)"}"#))
    }

    @Test("an asset or bytes argument is empty and reported; later arguments keep their positions")
    func unsupportedArguments() throws {
        let fields: [String: FieldValue] = [
            "photo": .asset(AssetReference(fileChecksum: "abc", size: 10)), "blob": .bytes(Data([0xFF])),
            "title": .string("Hi"),
        ]
        let info = NotificationInfo(alertLocalizationKey: "%1$@|%2$@|%3$@", alertLocalizationArgs: ["photo", "blob", "title"])
        let composed = try F.compose(F.match(info, change: F.change(fields: fields)))
        #expect(composed.notification.alertLocalizationArgs == ["", "", "Hi"])
        #expect(composed.notification.rendered?.body == "||Hi")
        #expect(composed.problems.map(\.code) == [.unsupportedField, .unsupportedField])
        #expect(composed.problems.map(\.location.property) == ["alertLocalizationArgs[0]", "alertLocalizationArgs[1]"])
        #expect(composed.problems[0].reason.contains("ASSETID"))
        #expect(!F.text(composed).contains("abc"))
    }

    @Test("an asset or bytes desired key is left out and reported")
    func unsupportedDesiredKeys() throws {
        let fields: [String: FieldValue] = [
            "photo": .asset(AssetReference(fileChecksum: "abc", size: 10, downloadURL: "https://x")),
            "blob": .bytes(Data([1, 2])), "title": .string("Hi"), "nan": .double(.nan),
        ]
        let info = NotificationInfo(desiredKeys: ["photo", "title", "blob", "nan"])
        let composed = try F.compose(F.match(info, change: F.change(fields: fields)))
        #expect(composed.notification.recordFields == ["title": "Hi"])
        #expect(F.text(composed).contains(#""af":{"title":"Hi"}"#))
        #expect(composed.problems.map(\.code) == [.unsupportedField, .unsupportedField, .unsupportedField])
        #expect(composed.problems.map(\.location.property) == ["desiredKeys[0]", "desiredKeys[2]", "desiredKeys[3]"])
    }

    @Test("a missing field: empty argument, desired key left out, both reported")
    func missingFields() throws {
        let info = NotificationInfo(
            alertLocalizationKey: "%@ and %@", alertLocalizationArgs: ["nope", "title"], desiredKeys: ["gone", "title"])
        let composed = try F.compose(F.match(info))
        #expect(composed.notification.alertLocalizationArgs == ["", "Groceries"])
        #expect(composed.notification.rendered?.body == " and Groceries")
        #expect(composed.notification.recordFields == ["title": "Groceries"])
        #expect(composed.problems.map(\.code) == [.missingField, .missingField])
        #expect(composed.problems.map(\.location.property) == ["alertLocalizationArgs[0]", "desiredKeys[0]"])
        #expect(composed.problems[0].description.contains("'nope'"))
    }

    @Test("all desired keys missing: no af, no recordFields")
    func noDesiredValues() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x", desiredKeys: ["gone"])))
        #expect(!F.text(composed).contains("af"))
        #expect(composed.notification.recordFields == nil)
    }

    @Test("a desired key listed twice is sent once")
    func duplicateDesiredKey() throws {
        let composed = try F.compose(F.match(NotificationInfo(desiredKeys: ["title", "title"])))
        #expect(F.text(composed).contains(#""af":{"title":"Groceries"}}"#))
    }

    @Test("record metadata can be named like fields")
    func metadata() throws {
        var change = F.change(fields: [:])
        change.createdBy = "_creator"
        change.creationDate = 1_795_000_000_000
        let info = NotificationInfo(desiredKeys: ["recordName", "modifiedBy", "createdBy", "modificationDate", "creationDate"])
        let composed = try F.compose(F.match(info, change: change))
        #expect(composed.notification.recordFields == [
            "recordName": "note-42", "modifiedBy": "_u1", "createdBy": "_creator",
            "modificationDate": .integer(1_795_300_000_000), "creationDate": .integer(1_795_000_000_000),
        ])
        #expect(composed.problems.isEmpty)
    }

    @Test("arguments without their localization key are not resolved")
    func argumentsWithoutKey() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x", alertLocalizationArgs: ["nope"])))
        #expect(composed.notification.alertLocalizationArgs == nil)
        #expect(composed.problems.isEmpty)
        #expect(!F.text(composed).contains("loc-args"))
    }

    @Test("collapse IDs", arguments: [
        (FieldValue.string("thread-1"), Optional("thread-1"), PayloadError.Code?.none),
        (.int64(77), "77", nil),
        (.string(String(repeating: "x", count: 64)), String(repeating: "x", count: 64), nil),
        (.string(String(repeating: "é", count: 32)), String(repeating: "é", count: 32), nil),
        (.string(String(repeating: "x", count: 65)), nil, .collapseID),
        (.string(String(repeating: "é", count: 33)), nil, .collapseID),
        (.string(String(repeating: "🐦", count: 17)), nil, .collapseID),
        (.string(""), nil, .collapseID),
        (.asset(AssetReference(fileChecksum: "c", size: 1)), nil, .unsupportedField),
    ])
    func collapseIDs(value: FieldValue, expected: String?, problem: PayloadError.Code?) throws {
        let info = NotificationInfo(alertBody: "x", collapseIDKey: "thread")
        let composed = try F.compose(F.match(info, change: F.change(fields: ["thread": value])))
        #expect(composed.notification.apns?.collapseID == expected)
        #expect(composed.problems.map(\.code) == (problem.map { [$0] } ?? []))
        #expect(composed.problems.allSatisfy { $0.location.property == "collapseIDKey" })
        // Whatever the value, the payload is the same: the collapse ID is a header.
        #expect(F.text(composed).hasPrefix(#"{"aps":{"alert":"x"},"#))
    }

    @Test("a collapse ID key naming a missing field is reported")
    func collapseIDMissing() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x", collapseIDKey: "nope")))
        #expect(composed.notification.apns?.collapseID == nil)
        #expect(composed.problems.map(\.code) == [.missingField])
    }

    @Test("a badging subscription without a count sends no badge and says so")
    func missingBadge() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x", shouldBadge: true)))
        #expect(composed.notification.badge == nil)
        #expect(!F.text(composed).contains("badge"))
        #expect(composed.problems.map(\.code) == [.missingBadge])
        let negative = try F.compose(F.match(NotificationInfo(shouldBadge: true)), badge: -3)
        #expect(negative.notification.badge == 0)
    }
}
