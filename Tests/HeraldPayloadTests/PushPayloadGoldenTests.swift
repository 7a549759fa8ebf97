import Foundation
import HeraldModel
import Testing
@testable import HeraldPayload

/// The exact bytes of each payload shape (docs/cloudkit-behaviour.md §5, docs/ARCHITECTURE.md §5.3).
@Suite("Push payload: golden shapes")
struct PushPayloadGoldenTests {
    typealias F = PayloadFixtures
    static let nid = Match.notificationID(changeID: "c-0001", owner: "_u1", subscriptionID: "urgent-notes")
    static let ck = #"{"ce":2,"cid":"iCloud.com.example.notes","nid":"\#(nid)","ckuserid":"_u1","#
    static let qry = #""qry":{"sid":"urgent-notes","dbs":1,"zid":"Notes","zoid":"_u1","rid":"note-42","fo":2"#

    @Test("body only: the alert is a plain string")
    func stringAlert() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "New Chat")))
        #expect(F.text(composed) == #"{"aps":{"alert":"New Chat"},"ck":"# + Self.ck + Self.qry + "}}}")
        #expect(composed.notification.apns?.pushType == .alert)
        #expect(composed.notification.apns?.priority == .immediate)
        #expect(composed.notification.rendered == RenderedAlert(locale: "und", body: "New Chat"))
        #expect(composed.problems.isEmpty)
    }

    @Test("body with badge and sound: the badge is the running count given")
    func badge() throws {
        let info = NotificationInfo(alertBody: "New Chat", soundName: "default", shouldBadge: true)
        let composed = try F.compose(F.match(info), badge: 180)
        #expect(F.text(composed) == #"{"aps":{"alert":"New Chat","badge":180,"sound":"default"},"ck":"#
            + Self.ck + Self.qry + "}}}")
        #expect(composed.notification.badge == 180)
    }

    @Test("a badge is sent only when the subscription badges")
    func noBadgeUnlessSubscribed() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x")), badge: 7)
        #expect(!F.text(composed).contains("badge"))
        #expect(composed.notification.badge == nil)
    }

    @Test("title and body: the alert is a dictionary")
    func alertDictionary() throws {
        let info = NotificationInfo(alertBody: "Family Chat Message", title: "Family Chat", soundName: "default")
        let composed = try F.compose(F.match(info))
        #expect(F.text(composed) == #"{"aps":{"alert":{"title":"Family Chat","body":"Family Chat Message"},"sound":"default"},"ck":"#
            + Self.ck + Self.qry + "}}}")
    }

    @Test("every alert key, in the documented order")
    func everyAlertKey() throws {
        let info = NotificationInfo(
            alertBody: "B", alertLocalizationKey: "LK", alertLocalizationArgs: ["title"], title: "T",
            titleLocalizationKey: "TK", titleLocalizationArgs: ["priority"], subtitle: "S", subtitleLocalizationKey: "SK",
            subtitleLocalizationArgs: ["title", "priority"], alertActionLocalizationKey: "AK", alertLaunchImage: "L.png",
            soundName: "ping.aiff", shouldBadge: true, shouldSendContentAvailable: true, shouldSendMutableContent: true,
            category: "NOTE")
        let composed = try F.compose(F.match(info), badge: 1)
        let alert = #"{"title":"T","title-loc-key":"TK","title-loc-args":["5"],"subtitle":"S","subtitle-loc-key":"SK","#
            + #""subtitle-loc-args":["Groceries","5"],"body":"B","loc-key":"LK","loc-args":["Groceries"],"#
            + #""action-loc-key":"AK","launch-image":"L.png"}"#
        let aps = #"{"alert":\#(alert),"badge":1,"sound":"ping.aiff","content-available":1,"mutable-content":1,"category":"NOTE"}"#
        #expect(F.text(composed) == #"{"aps":\#(aps),"ck":"# + Self.ck + Self.qry + "}}}")
        #expect(composed.notification.titleLocalizationArgs == ["5"])
        #expect(composed.notification.subtitleLocalizationArgs == ["Groceries", "5"])
    }

    @Test("docs/ARCHITECTURE.md §5.3: localized alert, badge, sound and desired keys")
    func designExample() throws {
        let info = NotificationInfo(
            alertLocalizationKey: "NOTE_CHANGED", alertLocalizationArgs: ["title"], titleLocalizationKey: "NOTE_TITLE",
            soundName: "default", shouldBadge: true, desiredKeys: ["title"])
        let composed = try F.compose(F.match(info), badge: 3, locale: "fr-FR")
        let expected = #"{"aps":{"alert":{"title-loc-key":"NOTE_TITLE","loc-key":"NOTE_CHANGED","loc-args":["Groceries"]},"#
            + #""badge":3,"sound":"default"},"ck":"# + Self.ck + Self.qry + #","af":{"title":"Groceries"}}}}"#
        #expect(F.text(composed) == expected)
        let notification = composed.notification
        #expect(notification.recordFields == ["title": "Groceries"])
        #expect(notification.alertLocalizationArgs == ["Groceries"])
        #expect(notification.titleLocalizationArgs == nil)
        #expect(notification.excludedDevice == "d-77")
        #expect(notification.sequence == 42)
        #expect(notification.createdAt == 1_795_300_000_123)
        #expect(notification.recipient == "_u1")
        #expect(notification.subscriptionOwnerUserRecordID == "_u1")
        #expect(notification.databaseScope == .private)
        #expect(notification.queryNotificationReason == .recordUpdated)
        #expect(notification.recordID == RecordID(recordName: "note-42", zoneID: F.zone))
        #expect(notification.isPruned == false)
        #expect(notification.apns?.collapseID == nil)
        // The full notification round-trips through the wire codec.
        let decoded = try WireCodec().decode(HeraldNotification.self, from: WireCodec().encode(notification))
        #expect(decoded == notification)
    }

    @Test("content-available alone: a silent background push, priority 5")
    func silent() throws {
        let composed = try F.compose(F.match(NotificationInfo(shouldSendContentAvailable: true)))
        #expect(F.text(composed) == #"{"aps":{"content-available":1},"ck":"# + Self.ck + Self.qry + "}}}")
        #expect(composed.notification.apns?.pushType == .background)
        #expect(composed.notification.apns?.priority == .conservesPower)
        #expect(composed.notification.rendered == nil)
    }

    @Test("push type and priority", arguments: [
        (NotificationInfo(alertBody: "x"), false, APNsPush.PushType.alert, APNsPush.Priority.immediate),
        (NotificationInfo(soundName: "default"), false, .alert, .immediate),
        (NotificationInfo(shouldBadge: true), false, .alert, .immediate),
        (NotificationInfo(alertBody: "x", shouldSendContentAvailable: true), false, .alert, .immediate),
        (NotificationInfo(shouldSendContentAvailable: true), false, .background, .conservesPower),
        (NotificationInfo(shouldSendContentAvailable: true, shouldSendMutableContent: true), false, .background, .conservesPower),
        (NotificationInfo(), false, .background, .conservesPower),
        (NotificationInfo(shouldSendContentAvailable: true), true, .voip, .immediate),
        (NotificationInfo(alertBody: "x"), true, .voip, .immediate),
    ])
    func pushType(info: NotificationInfo, voip: Bool, type: APNsPush.PushType, priority: APNsPush.Priority) throws {
        let composed = try F.compose(F.match(info), badge: 2, voip: voip)
        #expect(composed.notification.apns?.pushType == type)
        #expect(composed.notification.apns?.priority == priority)
    }

    @Test("fo for each reason: created 1, updated 2, deleted 3, entered 1, left 3", arguments: [
        (QueryNotificationReason.recordCreated, 1), (.recordUpdated, 2), (.recordDeleted, 3),
        (.recordEntered, 1), (.recordLeft, 3),
    ])
    func reasons(reason: QueryNotificationReason, fo: Int) throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "x"), reason: reason))
        let qry = #""qry":{"sid":"urgent-notes","dbs":1,"zid":"Notes","zoid":"_u1","rid":"note-42","fo":\#(fo)}"#
        #expect(F.text(composed) == #"{"aps":{"alert":"x"},"ck":"# + Self.ck + qry + "}}")
        #expect(composed.notification.queryNotificationReason == reason)
        #expect(NotificationComposer.pushCode(of: reason) == fo)
    }

    @Test("dbs for each database", arguments: [(DatabaseScope.private, 1), (.public, 2)])
    func databases(database: DatabaseScope, dbs: Int) throws {
        let change = F.change(database: database)
        var match = F.match(NotificationInfo(alertBody: "x"), change: change)
        match.subscription.database = database
        let composed = try F.compose(match)
        #expect(F.text(composed).contains(#""dbs":\#(dbs),"#))
        #expect(composed.notification.databaseScope == database)
    }

    @Test("zone notification: fet with sid, dbs, zid, zoid; no desired keys")
    func zone() throws {
        let info = NotificationInfo(shouldSendContentAvailable: true, desiredKeys: ["title"])
        let composed = try F.compose(F.match(info, type: .recordZone))
        #expect(F.text(composed) == #"{"aps":{"content-available":1},"ck":"# + Self.ck
            + #""fet":{"sid":"urgent-notes","dbs":1,"zid":"Notes","zoid":"_u1"}}}"#)
        let notification = composed.notification
        #expect(notification.notificationType == .recordZone)
        #expect(notification.recordZoneID == F.zone)
        #expect(notification.recordID == nil)
        #expect(notification.recordFields == nil)
        #expect(notification.queryNotificationReason == nil)
        _ = try WireCodec().decode(HeraldNotification.self, from: WireCodec().encode(notification))
    }

    @Test("database notification: met with sid, dbs and the changed zone")
    func database() throws {
        let composed = try F.compose(F.match(NotificationInfo(alertBody: "Changed"), type: .database))
        #expect(F.text(composed) == #"{"aps":{"alert":"Changed"},"ck":"# + Self.ck
            + #""met":{"sid":"urgent-notes","dbs":1,"zid":"Notes","zoid":"_u1"}}}"#)
        #expect(composed.notification.notificationType == .database)
        #expect(composed.notification.databaseScope == .private)
        _ = try WireCodec().decode(HeraldNotification.self, from: WireCodec().encode(composed.notification))
    }

    @Test("desired keys keep the subscription's order; each type has its JSON form")
    func desiredKeys() throws {
        let fields: [String: FieldValue] = [
            "name": .string("Jay"), "count": .int64(-12), "ratio": .double(2.5), "whole": .double(3),
            "when": .timestamp(1_795_300_000_123), "owner": .reference(RecordReference(recordName: "user-9")),
            "place": .location(Location(latitude: 48.8566, longitude: 2.3522, altitude: 35)),
            "tags": .list([.string("a"), .string("b")], of: .string),
        ]
        let keys = ["tags", "name", "count", "ratio", "whole", "when", "owner", "place"]
        let composed = try F.compose(F.match(NotificationInfo(desiredKeys: keys), change: F.change(fields: fields)))
        let af = #"{"tags":["a","b"],"name":"Jay","count":-12,"ratio":2.5,"whole":3,"when":1795300000123,"#
            + #""owner":"user-9","place":{"latitude":48.8566,"longitude":2.3522}}"#
        #expect(F.text(composed) == #"{"aps":{},"ck":"# + Self.ck + Self.qry + #","af":\#(af)}}}"#)
        #expect(composed.notification.recordFields?["place"] == ["latitude": 48.8566, "longitude": 2.3522])
        #expect(composed.notification.recordFields?.count == 8)
    }

    @Test("the collapse ID goes beside the payload, not in it")
    func collapseID() throws {
        let info = NotificationInfo(alertBody: "x", collapseIDKey: "title")
        let composed = try F.compose(F.match(info))
        #expect(composed.notification.apns?.collapseID == "Groceries")
        #expect(!F.text(composed).contains("Groceries"))
    }

    @Test("the JSON value of the payload is the bytes' content")
    func jsonValueMatchesBytes() throws {
        let info = NotificationInfo(
            alertLocalizationKey: "K", alertLocalizationArgs: ["title", "priority"], title: "T", soundName: "s",
            shouldBadge: true, desiredKeys: ["priority", "title"])
        let composed = try F.compose(F.match(info), badge: 4)
        #expect(try F.jsonValue(composed.payload) == composed.notification.apns?.payload)
    }

    /// Reference §5's real capture, from an equivalent subscription and record.
    @Test("the real capture of docs/cloudkit-behaviour.md §5, up to the notification ID")
    func realCapture() throws {
        let capture = #"""
        {"aps": {"alert": {"title": "Family Chat", "body": "Family Chat Message"}, "sound": "default"},
         "ck": {"ce": 2, "cid": "iCloud.com.jumptack.FamilyKit", "ckuserid": "_50125824373cb9a38c4142e6c601eb14",
                "nid": "3180cf65-1c66-4bfa-9226-e1f02160ead0",
                "qry": {"af": {"ownerName": "Jay", "ownerEmoji": "🐦", "sessionReferenceID": "63E9CC48-4EAD-4E0F-92CC-16274352E82A"},
                        "dbs": 1, "fo": 1, "rid": "94D8C5DB-33DD-4D71-8A4D-7F2AC7F104CD",
                        "sid": "857D15A1-13F9-4C81-AC54-9C5154B5532B", "zid": "_defaultZone",
                        "zoid": "_50125824373cb9a38c4142e6c601eb14"}}}
        """#
        let owner = "_50125824373cb9a38c4142e6c601eb14"
        let container = "iCloud.com.jumptack.FamilyKit"
        let zone = ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: owner)
        let subscription = Subscription(
            subscriptionID: "857D15A1-13F9-4C81-AC54-9C5154B5532B", subscriptionType: .query, container: container,
            database: .private, ownerRecordName: owner,
            query: SubscriptionQuery(recordType: "ChatMessage", predicate: "TRUEPREDICATE"), firesOn: [.create],
            notificationInfo: NotificationInfo(
                alertBody: "Family Chat Message", title: "Family Chat", soundName: "default",
                desiredKeys: ["ownerName", "ownerEmoji", "sessionReferenceID"]))
        let change = RecordChange(
            changeID: "chat-1", container: container, database: .private, zoneID: zone, recordType: "ChatMessage",
            recordName: "94D8C5DB-33DD-4D71-8A4D-7F2AC7F104CD", kind: .create,
            fields: [
                "ownerName": .string("Jay"), "ownerEmoji": .string("🐦"), "text": .string("Hi"),
                "sessionReferenceID": .reference(RecordReference(
                    recordName: "63E9CC48-4EAD-4E0F-92CC-16274352E82A", zoneID: zone, action: .deleteSelf)),
            ],
            timestamp: 1_795_300_000_000)
        let match = Match(recipient: owner, notificationType: .query, queryNotificationReason: .recordCreated,
                          subscription: subscription, change: change)
        let composed = try F.compose(match)

        guard case .object(var expected) = try F.jsonValue(Array(capture.utf8)),
              case .object(var ck)? = expected["ck"] else { Issue.record("capture does not parse"); return }
        ck["nid"] = .string(match.notificationID)
        expected["ck"] = .object(ck)
        #expect(try F.jsonValue(composed.payload) == .object(expected))
        #expect(composed.notification.apns?.pushType == .alert)
    }

    @Test("a readNotification or a query match without a reason is refused")
    func invalidMatches() throws {
        var match = F.match(NotificationInfo(alertBody: "x"))
        match.queryNotificationReason = nil
        #expect { try F.compose(match) } throws: { ($0 as? PayloadError)?.code == .invalidMatch }
        match.notificationType = .readNotification
        #expect { try F.compose(match) } throws: { ($0 as? PayloadError)?.code == .invalidMatch }
    }
}
