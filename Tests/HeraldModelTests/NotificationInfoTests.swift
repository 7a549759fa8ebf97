import Foundation
import Testing

@testable import HeraldModel

@Suite("NotificationInfo")
struct NotificationInfoTests {
    static let full = NotificationInfo(
        alertBody: "Body", alertLocalizationKey: "K", alertLocalizationArgs: ["a", "b"], title: "T",
        titleLocalizationKey: "TK", titleLocalizationArgs: ["t"], subtitle: "S", subtitleLocalizationKey: "SK",
        subtitleLocalizationArgs: ["s"], alertActionLocalizationKey: "AK", alertLaunchImage: "launch.png",
        soundName: "default", shouldBadge: true, shouldSendContentAvailable: true, shouldSendMutableContent: true,
        desiredKeys: ["a", "b", "c"], category: "CAT", collapseIDKey: "thread")

    @Test("every property round-trips")
    func fullRoundTrip() throws {
        let decoded = try Fixtures.roundTrip(Self.full)
        #expect(decoded.collapseIDKey == "thread")
        let keys = try #require(try Fixtures.decode(JSONValue.self, String(decoding: Fixtures.codec.encode(Self.full), as: UTF8.self)).objectValue?.keys)
        #expect(keys.count == 18)
    }

    @Test("an empty object means nothing set, and nothing set encodes as {}")
    func defaults() throws {
        let info = try Fixtures.decode(NotificationInfo.self, "{}")
        #expect(info == NotificationInfo())
        #expect(info.shouldBadge == false && info.desiredKeys.isEmpty && info.alertBody == nil)
        #expect(String(decoding: try Fixtures.codec.encode(info), as: UTF8.self) == "{}")
        let explicitDefaults = try Fixtures.decode(
            NotificationInfo.self, #"{"shouldBadge": false, "desiredKeys": [], "alertLocalizationArgs": []}"#)
        #expect(explicitDefaults == NotificationInfo())
    }

    @Test("unknown keys are ignored (newer producers may add some)")
    func unknownKeys() throws {
        #expect(try Fixtures.decode(NotificationInfo.self, #"{"futureKey": 1, "soundName": "ping"}"#).soundName == "ping")
    }
}
