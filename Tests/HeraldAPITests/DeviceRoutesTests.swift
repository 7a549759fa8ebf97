import Foundation
import HeraldModel
import HeraldPush
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Device routes")
struct DeviceRoutesTests {
    typealias H = APITestHarness

    static let apns = String(repeating: "AB", count: 32)
    static let fcm = "dXNlcjE:APA91b" + String(repeating: "Q", count: 140)

    static func path(_ token: String? = nil) -> String { H.path(token.map { "devices/\($0)" } ?? "devices") }

    struct Saved: Decodable {
        var device: Device
        var dropped: [String]
    }

    struct Listed: Decodable {
        var devices: [Device]
    }

    @Test("PUT registers the caller's device (APNs token lower-cased, registeredAt now); GET lists it; DELETE removes it")
    func lifecycle() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            var response = try await client.execute(
                uri: Self.path(Self.apns), method: .put, headers: headers,
                body: try .json(["platform": "apns", "environment": "production", "topic": "com.example.notes", "locale": "fr-FR"]))
            #expect(response.status == .ok, "\(response.text)")
            let saved = try response.json(Saved.self)
            #expect(saved.device.token == Self.apns.lowercased() && saved.device.user == "_u1" && saved.device.container == H.container)
            #expect(saved.device.registeredAt == 1_795_300_000_000 && saved.dropped.isEmpty)
            response = try await client.execute(
                uri: Self.path(Self.fcm), method: .put, headers: headers, body: try .json(["platform": "fcm", "appID": "1:2:android:3"]))
            #expect(response.status == .ok, "\(response.text)")

            response = try await client.execute(uri: Self.path(), method: .get, headers: headers)
            #expect(Set(try response.json(Listed.self).devices.map(\.token)) == [Self.apns.lowercased(), Self.fcm])
            // Another user sees none of them.
            let other = try await harness.authorization("_u2")
            response = try await client.execute(uri: Self.path(), method: .get, headers: other)
            #expect(try response.json(Listed.self).devices.isEmpty)
            #expect(try await client.execute(uri: Self.path(Self.fcm), method: .delete, headers: other).error(.notFound).serverErrorCode == "NOT_FOUND")

            response = try await client.execute(uri: Self.path(Self.apns), method: .delete, headers: headers)
            #expect(response.status == .ok, "\(response.text)")
            #expect(harness.devices.all.values.map(\.token) == [Self.fcm])
            #expect(try await client.execute(uri: Self.path(Self.apns), method: .delete, headers: headers).error(.notFound).serverErrorCode == "NOT_FOUND")
        }
    }

    @Test("invalid registrations are INVALID_DEVICE naming the field, or BAD_REQUEST for wrong JSON; nothing is stored",
          arguments: [
            ("abc", #"{"platform": "apns", "environment": "production", "topic": "com.example.notes"}"#, "INVALID_DEVICE", "token:"),
            (apns, #"{"platform": "apns", "topic": "com.example.notes"}"#, "INVALID_DEVICE", "environment:"),
            (apns, #"{"platform": "apns", "environment": "production"}"#, "INVALID_DEVICE", "topic:"),
            ("not-a-token", #"{"platform": "fcm"}"#, "INVALID_DEVICE", "token:"),
            (fcm, #"{"platform": "fcm", "locale": "fr FR"}"#, "INVALID_DEVICE", "locale:"),
            (fcm, #"{"platform": "webpush"}"#, "BAD_REQUEST", "platform"),
            (fcm, #"{"platform": 3}"#, "BAD_REQUEST", "platform"),
          ])
    func invalid(token: String, body: String, code: String, reasonStart: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: Self.path(token), method: .put, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == code)
            #expect(error.reason.contains(reasonStart), "\(error.reason)")
            #expect(harness.devices.all.isEmpty)
        }
    }

    @Test("past the per-user cap the oldest registration is removed and reported in dropped")
    func cap() async throws {
        let harness = try await H(deviceRules: DeviceRules(maxDevicesPerUser: 2))
        let headers = try await harness.authorization()
        let tokens = (1...3).map { String(repeating: "0", count: 63) + String($0) }
        try await harness.application().test(.router) { client in
            var dropped: [[String]] = []
            // One clock: equal registration times are ordered by token, so the first is the oldest.
            for token in tokens {
                let response = try await client.execute(
                    uri: Self.path(token), method: .put, headers: headers,
                    body: try .json(["platform": "apns", "environment": "development", "topic": "com.example.notes"]))
                dropped.append(try response.json(Saved.self).dropped)
            }
            #expect(dropped == [[], [], [tokens[0]]])
            #expect(Set(harness.devices.devices(user: "_u1").map(\.token)).count == 2)
        }
    }
}
