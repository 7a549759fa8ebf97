import Foundation
import HeraldModel
import HeraldPush
import Testing

@Suite("APNs requests and Apple's rules")
struct APNsRequestTests {
    static let token = String(repeating: "ab", count: 32)
    static let id = "3180cf65-1c66-4bfa-9226-e1f02160ead0"

    static func request(
        _ pushType: APNsPush.PushType = .alert, priority: APNsPush.Priority = .immediate, collapseID: String? = nil,
        payload: JSONValue = ["aps": ["alert": "hi"]], environment: Device.Environment? = .production,
        topic: String? = "com.example.notes", id: String = id, token: String = token
    ) -> PushRequest {
        let device = Device(
            token: token, user: "_u1", container: "iCloud.com.example.notes", platform: .apns,
            environment: environment, topic: topic, registeredAt: 1)
        return PushRequest(
            device: device, notificationID: id,
            apns: APNsPush(pushType: pushType, priority: priority, collapseID: collapseID, payload: payload),
            expiration: 1_900_000_000)
    }

    @Test("an alert push has Apple's path, host and headers, and the payload as JSON")
    func alertHeaders() throws {
        let built = try APNsRequest(Self.request(collapseID: "thread-1"))
        #expect(built.host == "api.push.apple.com")
        #expect(built.path == "/3/device/" + Self.token)
        #expect(built.headers == [
            "apns-topic": "com.example.notes", "apns-push-type": "alert", "apns-priority": "10",
            "apns-expiration": "1900000000", "apns-id": Self.id, "apns-collapse-id": "thread-1",
        ])
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(built.body)) == ["aps": ["alert": "hi"]])
    }

    @Test("development devices go to the sandbox host")
    func sandboxHost() throws {
        #expect(try APNsRequest(Self.request(environment: .development)).host == "api.sandbox.push.apple.com")
        #expect(try APNsRequest(Self.request(environment: nil)).host == "api.push.apple.com")
    }

    @Test("a background push is sent with priority 5 even when the notification asked for 10")
    func backgroundPriority() throws {
        let built = try APNsRequest(Self.request(.background, payload: ["aps": ["content-available": 1]]))
        #expect(built.headers["apns-priority"] == "5")
        #expect(built.headers["apns-push-type"] == "background")
    }

    @Test("a VoIP push goes to the bundle ID's .voip topic")
    func voipTopic() throws {
        #expect(try APNsRequest(Self.request(.voip)).headers["apns-topic"] == "com.example.notes.voip")
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var request: PushRequest
        var status: Int
        var reason: String
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(name: "no topic", request: request(topic: nil), status: 400, reason: "MissingTopic"),
        Broken(name: "apns-id not a UUID", request: request(id: "n-1"), status: 400, reason: "BadMessageId"),
        Broken(
            name: "collapse ID over 64 bytes", request: request(collapseID: String(repeating: "é", count: 33)), status: 400,
            reason: "BadCollapseId"),
        Broken(
            name: "background without content-available", request: request(.background, payload: ["aps": ["badge": 1]]),
            status: 400, reason: "BadPayload"),
        Broken(
            name: "background with an alert",
            request: request(.background, payload: ["aps": ["content-available": 1, "alert": "x"]]), status: 400,
            reason: "BadPayload"),
        Broken(
            name: "payload over 4096 bytes",
            request: request(payload: ["aps": ["alert": .string(String(repeating: "x", count: 4100))]]), status: 413,
            reason: "PayloadTooLarge"),
        Broken(name: "token not hex", request: request(token: String(repeating: "zz", count: 32)), status: 400, reason: "BadDeviceToken"),
        Broken(name: "token too short", request: request(token: "abcd"), status: 400, reason: "BadDeviceToken"),
        Broken(name: "payload without aps", request: request(payload: ["ck": ["ce": 2]]), status: 400, reason: "BadPayload"),
    ]

    @Test("a push breaking Apple's rules is refused before sending, with Apple's reason", arguments: broken)
    func refusesBroken(_ row: Broken) {
        #expect(throws: PushError.self) { try APNsRequest(row.request) }
        do {
            _ = try APNsRequest(row.request)
        } catch {
            #expect(error.status == row.status)
            #expect(error.reason == row.reason)
        }
    }

    @Test("the stand-in's header rules: push type, priority values, expiration, method and path")
    func headerRules() {
        let body = Array(#"{"aps":{"alert":"x"}}"#.utf8)
        let path = "/3/device/" + Self.token
        let good = ["apns-topic": "a.b", "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "0"]
        #expect(APNsRules.refusal(method: "POST", path: path, headers: good, body: body) == nil)
        func reason(_ change: [String: String], method: String = "POST", path: String = path) -> String? {
            APNsRules.refusal(method: method, path: path, headers: good.merging(change) { $1 }, body: body)?.reason
        }
        #expect(reason(["apns-push-type": "banner"]) == "InvalidPushType")
        #expect(reason(["apns-priority": "7"]) == "BadPriority")
        #expect(reason(["apns-expiration": "soon"]) == "BadExpirationDate")
        #expect(reason(["apns-topic": ""]) == "MissingTopic")
        #expect(reason(["apns-push-type": "voip"]) == "BadTopic")
        #expect(reason([:], method: "GET") == "MethodNotAllowed")
        #expect(reason([:], path: "/2/device/x") == "BadPath")
        #expect(APNsRules.refusal(method: "POST", path: path, headers: good, body: [])?.reason == "PayloadEmpty")
    }

    @Test("Herald's notification IDs (UUID v5) are valid apns-ids")
    func notificationIDsAreUUIDs() {
        #expect(APNsRules.isCanonicalUUID(Self.id))
        #expect(APNsRules.isCanonicalUUID(UUID().uuidString))
        #expect(!APNsRules.isCanonicalUUID("3180cf65-1c66-4bfa-9226e1f02160ead0"))
    }
}
