import Foundation
import Testing

@testable import HeraldModel

@Suite("HeraldNotification")
struct HeraldNotificationTests {
    @Test("the docs/ARCHITECTURE.md §5.3 example decodes")
    func designExample() throws {
        let notification = try Fixtures.decode(HeraldNotification.self, Fixtures.notification)
        #expect(notification.notificationType == .query)
        #expect(notification.sequence == 42)
        #expect(notification.queryNotificationReason == .recordUpdated)
        #expect(notification.databaseScope == .private)
        #expect(notification.recordID?.recordName == "note-42")
        #expect(notification.recordFields == ["title": "Groceries"])
        #expect(notification.badge == 3)
        #expect(notification.rendered == RenderedAlert(locale: "fr-FR", title: "Note", body: "« Groceries » a changé"))
        #expect(notification.excludedDevice == "d-77")
        let apns = try #require(notification.apns)
        #expect(apns.pushType == .alert && apns.priority == .immediate && apns.collapseID == nil)
        #expect(apns.payload["ck"]?["qry"]?["dbs"] == 1)
        #expect(apns.payload["aps"]?["alert"]?["loc-args"] == ["Groceries"])
        _ = try Fixtures.roundTrip(notification)
    }

    @Test("nil keys are omitted; the key set is the documented one")
    func keySet() throws {
        let notification = try Fixtures.decode(HeraldNotification.self, Fixtures.notification)
        let encoded = try Fixtures.decode(JSONValue.self, String(decoding: Fixtures.codec.encode(notification), as: UTF8.self))
        let original = try Fixtures.decode(JSONValue.self, Fixtures.notification)
        #expect(Set(try #require(encoded.objectValue).keys) == Set(try #require(original.objectValue).keys))
        #expect(encoded["apns"]?["collapseID"] == nil)

        let read = HeraldNotification(
            notificationID: "n", notificationType: .readNotification, containerIdentifier: "c", recipient: "_u1",
            sequence: 7, createdAt: 1)
        let text = String(decoding: try Fixtures.codec.encode(read), as: UTF8.self)
        #expect(text == #"{"containerIdentifier":"c","createdAt":1,"isPruned":false,"notificationID":"n","notificationType":"readNotification","recipient":"_u1","sequence":7}"#)
    }

    @Test("zone and database notifications with every alert field round-trip")
    func otherKinds() throws {
        var zone = HeraldNotification(
            notificationID: "z", notificationType: .recordZone, containerIdentifier: "c", recipient: "_u1", sequence: 1,
            createdAt: 2, subscriptionID: "s", subscriptionOwnerUserRecordID: "_u1", isPruned: true)
        zone.recordZoneID = ZoneID(zoneName: "Z", ownerRecordName: "_u1")
        zone.alertBody = "b"
        zone.title = "t"
        zone.titleLocalizationKey = "tk"
        zone.titleLocalizationArgs = ["1"]
        zone.subtitle = "s"
        zone.subtitleLocalizationKey = "sk"
        zone.subtitleLocalizationArgs = ["2"]
        zone.alertActionLocalizationKey = "ak"
        zone.alertLaunchImage = "img"
        zone.category = "cat"
        zone.apns = APNsPush(pushType: .background, priority: .conservesPower, collapseID: "abc", payload: ["aps": ["content-available": 1]])
        _ = try Fixtures.roundTrip(zone)
        var database = HeraldNotification(
            notificationID: "d", notificationType: .database, containerIdentifier: "c", recipient: "_u1", sequence: 0,
            createdAt: 0, subscriptionID: "s")
        database.databaseScope = .shared
        database.apns = APNsPush(pushType: .voip, priority: .immediate, payload: [:])
        _ = try Fixtures.roundTrip(database)
    }

    static let malformed: [(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String)] = [
        ("notificationID", "", .invalidValue, "notificationID"),
        ("notificationType", "query2", .unknownValue, "notificationType"),
        ("recipient", nil, .missingValue, "recipient"),
        ("sequence", -1, .invalidValue, "sequence"),
        ("sequence", 1.5, .typeMismatch, "sequence"),
        ("queryNotificationReason", nil, .missingValue, "queryNotificationReason"),
        ("queryNotificationReason", "recordMoved", .unknownValue, "queryNotificationReason"),
        ("recordID", nil, .missingValue, "recordID"),
        ("recordID.recordName", "", .invalidValue, "recordID.recordName"),
        ("databaseScope", "global", .unknownValue, "databaseScope"),
        ("subscriptionID", nil, .missingValue, "subscriptionID"),
        ("notificationType", "recordZone", .missingValue, "recordZoneID"),
        ("badge", -3, .invalidValue, "badge"),
        ("rendered.locale", nil, .missingValue, "rendered.locale"),
        ("createdAt", "today", .typeMismatch, "createdAt"),
        ("apns.pushType", "silent", .unknownValue, "apns.pushType"),
        ("apns.priority", 7, .invalidValue, "apns.priority"),
        ("apns.collapseID", .string(String(repeating: "x", count: 65)), .invalidValue, "apns.collapseID"),
        ("apns.payload", "aps", .typeMismatch, "apns.payload"),
        ("isPruned", "no", .typeMismatch, "isPruned"),
    ]

    @Test("malformed notifications are errors naming the offending field", arguments: malformed)
    func malformedNotification(path: String, value: JSONValue?, code: ModelError.Code, errorPath: String) throws {
        let json = try Fixtures.edit(Fixtures.notification, path, value)
        let error = try #require(Fixtures.decodeError(HeraldNotification.self, json))
        #expect(error.code == code, "\(error)")
        #expect(error.path == errorPath, "\(error)")
    }
}
