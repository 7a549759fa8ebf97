import Foundation
import HeraldModel
import HeraldPush
import Testing

@Suite("FCM v1 messages")
struct FCMMessageTests {
    static let id = "3180cf65-1c66-4bfa-9226-e1f02160ead0"
    static let payload: JSONValue = [
        "aps": ["alert": ["title": "Family Chat", "body": "New message"], "sound": "default"],
        "ck": ["ce": 2, "nid": .string(id)],
    ]

    static func request(topic: String?, pushType: APNsPush.PushType = .alert, payload: JSONValue = payload) -> PushRequest {
        let device = Device(
            token: "fcm-token-1", user: "_u1", container: "iCloud.com.example.notes", platform: .fcm, topic: topic,
            registeredAt: 1)
        return PushRequest(
            device: device, notificationID: id,
            apns: APNsPush(pushType: pushType, priority: .immediate, collapseID: "c1", payload: payload),
            expiration: 1_000_060)
    }

    static func message(_ request: PushRequest) throws -> JSONValue {
        let body = try FCMMessage.body(for: request, nowSeconds: 1_000_000)
        return try #require(try JSONDecoder().decode(JSONValue.self, from: Data(body))["message"])
    }

    @Test("the path names the project")
    func path() {
        #expect(FCMMessage.path(project: "herald-demo") == "/v1/projects/herald-demo/messages:send")
    }

    @Test("an iOS device gets message.apns with APNs' headers and the exact payload")
    func iosDevice() throws {
        let message = try Self.message(Self.request(topic: "com.example.notes"))
        #expect(message["token"] == "fcm-token-1")
        #expect(message["apns"]?["payload"] == Self.payload)
        #expect(message["apns"]?["headers"] == [
            "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "1000060", "apns-id": .string(Self.id),
            "apns-collapse-id": "c1",
        ])
        #expect(message["notification"] == nil)
        #expect(message["data"]?["nid"] == .string(Self.id))
    }

    @Test("an Android device gets notification, data with the IDs and ck as text, and android options")
    func androidDevice() throws {
        let message = try Self.message(Self.request(topic: nil))
        #expect(message["notification"] == ["title": "Family Chat", "body": "New message"])
        #expect(message["data"]?["nid"] == .string(Self.id))
        let ck = try #require(message["data"]?["ck"]?.stringValue)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(ck.utf8)) == Self.payload["ck"])
        #expect(message["android"] == ["priority": "HIGH", "ttl": "60s", "collapse_key": "c1"])
        #expect(message["apns"] == nil)
    }

    @Test("an Android background push is a data-only message at normal priority")
    func androidBackground() throws {
        let message = try Self.message(
            Self.request(topic: nil, pushType: .background, payload: ["aps": ["content-available": 1], "ck": ["ce": 2]]))
        #expect(message["notification"] == nil)
        #expect(message["android"]?["priority"] == "NORMAL")
    }
}
