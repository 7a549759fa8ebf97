import Foundation
import HeraldModel
import HeraldPush
import Testing

/// The payload rules read a canonical body (Herald's own) by member lookups and any other
/// body through a `JSONValue` tree: both must answer alike.
@Suite("APNs payload rules on canonical and other bodies")
struct APNsPayloadRulesTests {
    static let path = "/3/device/" + String(repeating: "ab", count: 32)

    static let payloads: [(String, String?)] = [
        (#"{"aps":{"alert":"x"}}"#, nil),
        (#"{"aps":{"alert":{"body":"x","title":"t"},"badge":3,"sound":"default"},"ck":{"ce":2}}"#, nil),
        (#"{"aps":{"content-available":1}}"#, nil),
        (#"{"aps":{"content-available":1},"ck":{"nid":"n"}}"#, nil),
        (#"{"aps":{"content-available":2}}"#, "BadPayload"),
        (#"{"aps":{"badge":1,"content-available":1}}"#, "BadPayload"),
        (#"{"aps":{"alert":null,"content-available":1}}"#, "BadPayload"),
        (#"{"aps":{}}"#, nil),
        (#"{"aps":[]}"#, "BadPayload"),
        (#"{"aps":"x"}"#, "BadPayload"),
        (#"{"ck":{"ce":2}}"#, "BadPayload"),
        (#"[1]"#, "BadPayload"),
    ]

    static func headers(_ type: String) -> [String: String] {
        ["apns-topic": "a.b", "apns-push-type": type, "apns-priority": type == "background" ? "5" : "10"]
    }

    @Test("alert and background pushes: the canonical reading gives the tree's answer", arguments: ["alert", "background"])
    func sameAnswers(type: String) throws {
        var checked = 0
        for (text, _) in Self.payloads {
            for body in [text, text.replacingOccurrences(of: ":", with: ": ")] {
                let bytes = Array(body.utf8)
                let tree = try? JSONValue(parsing: Data(bytes))
                let read = APNsRules.refusal(method: "POST", path: Self.path, headers: Self.headers(type), body: bytes)
                let given = APNsRules.refusal(
                    method: "POST", path: Self.path, headers: Self.headers(type), body: bytes, payload: tree)
                #expect(read == given, "\(type) \(body)")
                checked += 1
            }
        }
        #expect(checked == Self.payloads.count * 2)
    }

    @Test("background pushes: refused exactly where Apple refuses them")
    func backgroundRefusals() {
        for (text, expected) in Self.payloads {
            let refusal = APNsRules.refusal(
                method: "POST", path: Self.path, headers: Self.headers("background"), body: Array(text.utf8))
            let alertOnly = text.contains("\"alert\"") || text.contains("\"badge\"") || !text.contains("content-available")
            #expect(refusal?.reason == (expected ?? (alertOnly ? "BadPayload" : nil)), "\(text)")
        }
    }

    @Test("a push built from a decoded notification sends the payload bytes it was read from")
    func decodedPayloadSentAsRead() throws {
        let id = "3180cf65-1c66-4bfa-9226-e1f02160ead0"
        var notification = HeraldNotification(
            notificationID: id, notificationType: .query, containerIdentifier: "iCloud.c", recipient: "_u1", sequence: 1,
            createdAt: 1_795_300_000_000, subscriptionID: "s", isPruned: false)
        notification.queryNotificationReason = .recordCreated
        notification.recordID = RecordID(recordName: "r", zoneID: ZoneID(zoneName: "_defaultZone", ownerRecordName: "_u1"))
        notification.databaseScope = .private
        let payload: JSONValue = ["aps": ["alert": ["body": "Bonjour"], "badge": 2], "ck": ["ce": 2, "nid": .string(id)]]
        notification.apns = APNsPush(pushType: .alert, priority: .immediate, payload: payload)
        let codec = WireCodec()
        let decoded = try codec.decode(HeraldNotification.self, from: try codec.encode(notification))
        let apns = try #require(decoded.apns)
        var writer = JSONWriter()
        try writer.value(payload)
        #expect(apns.encodedPayload == writer.bytes)
        let device = Device(
            token: String(repeating: "ab", count: 32), user: "_u1", container: "iCloud.c", platform: .apns,
            environment: .production, topic: "com.example", registeredAt: 1)
        let request = try APNsRequest(PushRequest(device: device, notificationID: id, apns: apns, expiration: 0))
        #expect(request.body == writer.bytes)
    }
}
