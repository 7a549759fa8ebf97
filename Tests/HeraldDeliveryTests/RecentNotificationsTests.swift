import Foundation
import HeraldDelivery
import HeraldModel
import Testing

/// The compose stage's window of recent notifications: fingerprints that recognize the same
/// ID in any of its forms, a bounded window, and states written before fingerprints.
@Suite("Recent notifications window")
struct RecentNotificationsTests {
    @Test("a UUID's fingerprint is the same from its bytes and from its text in either case")
    func uuidForms() {
        for number in 0..<200 {
            let uuid = UUID(version5: "change-\(number)/_u1/sub", namespace: .heraldNamespace)
            let fingerprint = RecentNotifications.fingerprint(uuid)
            #expect(RecentNotifications.fingerprint(uuid.lowercasedString) == fingerprint)
            #expect(RecentNotifications.fingerprint(uuid.uuidString) == fingerprint)
        }
    }

    @Test("different IDs, UUIDs or not, give different fingerprints")
    func distinct() {
        let ids = (0..<5_000).map { UUID(version5: "c\($0)", namespace: .heraldNamespace).lowercasedString }
            + (0..<5_000).map { "firing-\($0)" } + ["", "-", String(repeating: "0", count: 36)]
        #expect(Set(ids.map(RecentNotifications.fingerprint)).count == ids.count)
    }

    @Test("the window keeps the latest 512, oldest first")
    func window() {
        var recent = RecentNotifications()
        for number in 0..<600 { recent.remember("id-\(number)") }
        #expect(recent.fingerprints.count == RecentNotifications.limit)
        #expect(!recent.contains("id-87"))
        #expect(recent.contains("id-88"))
        #expect(recent.contains("id-599"))
        #expect(recent.fingerprints.first == RecentNotifications.fingerprint("id-88"))
        #expect(RecentNotifications(base64: recent.base64) == recent)
    }

    @Test("a state written with the IDs themselves is read into fingerprints")
    func previousFormat() throws {
        let ids = (0..<520).map { UUID(version5: "c\($0)", namespace: .heraldNamespace).lowercasedString }
        let idList = ids.map { "\"\($0)\"" }.joined(separator: ",")
        let json = #"{"appliedOffsets":{},"badges":{},"firedOnce":[],"nextSequence":521,"recentNotificationIDs":[\#(idList)],"recipient":"_u1"}"#
        let state = try WireCodec().decode(UserStreamState.self, from: Data(json.utf8))
        #expect(state.recentNotifications.fingerprints.count == 512)
        #expect(!state.recentNotifications.contains(ids[7]))
        #expect(state.recentNotifications.contains(ids[8]))
        #expect(state.recentNotifications.contains(ids[519].uppercased()))
        let written = String(decoding: try WireCodec().encode(state), as: UTF8.self)
        #expect(!written.contains("recentNotificationIDs"))
        #expect(try WireCodec().decode(UserStreamState.self, from: Data(written.utf8)) == state)
    }

    @Test(
        "a window that is not base64 of whole fingerprints, or too long, is refused naming the field",
        arguments: ["not base64!", "AAAA", Data(count: 8 * 513).base64EncodedString()])
    func malformed(window: String) {
        let json = #"{"nextSequence":1,"recentNotifications":"\#(window)","recipient":"_u1"}"#
        #expect {
            _ = try WireCodec().decode(UserStreamState.self, from: Data(json.utf8))
        } throws: { error in
            String(describing: error).contains("recentNotifications")
        }
    }
}
