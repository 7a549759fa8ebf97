import Foundation
import HeraldModel
import HeraldPayload
import Testing

@Suite("Scheduled notifications: text and push")
struct ScheduledComposerTests {
    @Test("printf escapes are stripped from the displayed body and %% shows a percent sign", arguments: [
        ("Meet %@ at %d", "Meet  at "),
        ("100%% sure", "100% sure"),
        ("%1$@ and %2$@ now", " and  now"),
        ("Price: %.2f€ (%ld items, %-5s)", "Price: € ( items, )"),
        ("50% off", "50% off"),
        ("ends with %", "ends with %"),
        ("%%d is literal", "%d is literal"),
        ("emoji 👍🏽 %@!", "emoji 👍🏽 !"),
        ("", ""),
    ])
    func displayedBody(input: String, expected: String) {
        #expect(LocalAlertText.displayed(input) == expected)
    }

    private func firing(_ schedule: Schedule, at instant: Int64 = 1_774_699_200_000) -> ScheduledFiring {
        ScheduledFiring(schedule: schedule, fireDate: instant, trigger: .date)
    }

    private func payload(_ composed: ComposedNotification) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(composed.payload)) as? [String: Any])
    }

    @Test("the push has the alert, badge, sound, category and userInfo at the top level")
    func fullPush() throws {
        let schedule = Schedule(
            scheduleID: "s1", container: "c", recipient: "_u1", fireDate: 1_774_699_200_000, alertBody: "Take %@ now, 100%%",
            alertAction: "Open", alertTitle: "Pills", alertLaunchImage: "launch.png", category: "MEDS", soundName: "chime.caf",
            applicationIconBadgeNumber: 4, userInfo: ["dose": .integer(2), "tags": .array([.string("a")])])
        let composed = try ScheduledComposer().compose(firing(schedule), sequence: 7, createdAt: 1, badge: 4, locale: "fr-FR")
        let push = try payload(composed)
        let aps = try #require(push["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Pills")
        #expect(alert["body"] as? String == "Take  now, 100%")
        #expect(alert["action-loc-key"] as? String == "Open")
        #expect(alert["launch-image"] as? String == "launch.png")
        #expect(aps["badge"] as? Int == 4 && aps["sound"] as? String == "chime.caf" && aps["category"] as? String == "MEDS")
        #expect(push["dose"] as? Int == 2)
        let notification = composed.notification
        #expect(notification.notificationType == .scheduled && notification.sequence == 7)
        #expect(notification.notificationID == ScheduledFiring.firingID(container: "c", recipient: "_u1", scheduleID: "s1", instant: 1_774_699_200_000))
        #expect(notification.alertBody == "Take %@ now, 100%%")
        #expect(notification.rendered == RenderedAlert(locale: "fr-FR", title: "Pills", body: "Take  now, 100%"))
        #expect(notification.apns?.pushType == .alert && notification.apns?.priority == .immediate)
        #expect(notification.isPruned == false)
        // The notification value survives the wire.
        let codec = WireCodec()
        #expect(try codec.decode(HeraldNotification.self, from: codec.encode(notification)) == notification)
    }

    @Test("a body alone is a string alert; hasAction false sends a null action key; nothing visible is a background push")
    func alertForms() throws {
        var schedule = Schedule(scheduleID: "s", container: "c", recipient: "u", alertBody: "Hi")
        var push = try payload(try ScheduledComposer().compose(firing(schedule), sequence: 1, createdAt: 1, badge: nil))
        #expect((push["aps"] as? [String: Any])?["alert"] as? String == "Hi")

        schedule.hasAction = false
        push = try payload(try ScheduledComposer().compose(firing(schedule), sequence: 1, createdAt: 1, badge: nil))
        let alert = try #require((push["aps"] as? [String: Any])?["alert"] as? [String: Any])
        #expect(alert["action-loc-key"] is NSNull && alert["body"] as? String == "Hi")

        let silent = Schedule(scheduleID: "s", container: "c", recipient: "u", userInfo: ["k": .string("v")])
        let composed = try ScheduledComposer().compose(firing(silent), sequence: 1, createdAt: 1, badge: nil)
        #expect(composed.notification.apns?.pushType == .background && composed.notification.apns?.priority == .conservesPower)
        #expect((try payload(composed)["aps"] as? [String: Any])?["content-available"] as? Int == 1)
    }

    @Test("an oversized push shortens the body, then drops userInfo; the notification keeps everything")
    func pruning() throws {
        let long = String(repeating: "é", count: 3000)
        var schedule = Schedule(scheduleID: "s", container: "c", recipient: "u", alertBody: long, userInfo: ["k": .string("v")])
        var composed = try ScheduledComposer().compose(firing(schedule), sequence: 1, createdAt: 1, badge: nil)
        #expect(composed.payload.count <= 4096)
        #expect(composed.pruning == [.shortened(.alertBody)])
        #expect(composed.notification.isPruned && composed.notification.alertBody == long)
        #expect((try payload(composed)["k"]) as? String == "v")

        schedule.userInfo = ["blob": .string(String(repeating: "x", count: 5000))]
        composed = try ScheduledComposer().compose(firing(schedule), sequence: 1, createdAt: 1, badge: nil)
        #expect(composed.payload.count <= 4096)
        #expect(try payload(composed)["blob"] == nil)
        #expect(composed.problems.map(\.code) == [.payloadTooLarge])
        #expect(composed.notification.userInfo?["blob"] != nil)
    }

    @Test("a userInfo key aps is refused")
    func apsKeyRefused() {
        let schedule = Schedule(scheduleID: "s", container: "c", recipient: "u", alertBody: "x", userInfo: ["aps": .string("no")])
        #expect(throws: PayloadError.self) { try ScheduledComposer().compose(firing(schedule), sequence: 1, createdAt: 1, badge: nil) }
    }
}
