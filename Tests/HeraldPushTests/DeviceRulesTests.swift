import Foundation
import HeraldModel
import HeraldPush
import Testing

@Suite("Device registry rules")
struct DeviceRulesTests {
    let rules = DeviceRules()
    static let hex64 = String(repeating: "0a", count: 32)
    static let fcm = "eXampleInstance:APA91bH" + String(repeating: "a-_Z9", count: 30)

    func apns(_ token: String) -> Device {
        Device(
            token: token, user: "_u1", container: "iCloud.x", platform: .apns, environment: .production,
            topic: "com.example.x", registeredAt: 1)
    }

    @Test("APNs tokens: 64 to 200 hex digits, even, kept lower-case", arguments: [
        (hex64, true), (hex64.uppercased(), true), (String(repeating: "ab", count: 100), true),
        (String(hex64.dropLast()), false), (String(repeating: "ab", count: 101), false), (hex64 + "a", false),
        ("g" + String(hex64.dropFirst()), false), ("", false),
    ])
    func apnsTokens(token: String, valid: Bool) throws {
        if valid {
            #expect(try rules.validated(apns(token)).token == token.lowercased())
        } else {
            #expect(throws: PushError.self) { try rules.validated(apns(token)) }
        }
    }

    @Test("FCM tokens: 64 to 4096 of letters, digits, - _ :", arguments: [
        (fcm, true), (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 63), false),
        (String(repeating: "a", count: 4097), false), (fcm + " ", false), (fcm + "/", false),
    ])
    func fcmTokens(token: String, valid: Bool) throws {
        let device = Device(token: token, user: "_u1", container: "iCloud.x", platform: .fcm, registeredAt: 1)
        if valid {
            #expect(try rules.validated(device).token == token)
        } else {
            #expect(throws: PushError.self) { try rules.validated(device) }
        }
    }

    @Test("errors name the field: environment and topic for APNs, locale, user")
    func fields() {
        func field(_ change: (inout Device) -> Void) -> String? {
            var device = apns(Self.hex64)
            change(&device)
            do throws(PushError) {
                _ = try rules.validated(device)
                return nil
            } catch {
                return error.field
            }
        }
        #expect(field { $0.environment = nil } == "environment")
        #expect(field { $0.topic = nil } == "topic")
        #expect(field { $0.locale = "en US" } == "locale")
        #expect(field { $0.user = "" } == "user")
        #expect(field { $0.container = "a/b" } == "container")
        #expect(field { $0.locale = "pt-BR" } == nil)
    }

    @Test("a devices record decodes and validates; garbage is UNDECODABLE")
    func decode() throws {
        let device = apns(Self.hex64.uppercased())
        let decoded = try rules.decode(try WireCodec().encode(device))
        #expect(decoded.token == Self.hex64 && decoded.registryKey == "iCloud.x/_u1/\(Self.hex64)")
        do throws(PushError) {
            _ = try rules.decode(Data("{".utf8))
            Issue.record("garbage decoded")
        } catch {
            #expect(error.code == .undecodable)
        }
    }

    @Test("the user's state drops the oldest registrations past the cap, and settles pushes per device")
    func userState() {
        var state = UserPushState(user: "_u1")
        let devices = (1...3).map { index in
            Device(token: String(repeating: "\(index)", count: 64), user: "_u1", container: "iCloud.x", platform: .fcm, registeredAt: Int64(4 - index))
        }
        #expect(state.register(devices[0], maxDevices: 2).isEmpty)
        #expect(state.register(devices[1], maxDevices: 2).isEmpty)
        #expect(state.register(devices[2], maxDevices: 2).map(\.token) == [devices[2].token])
        #expect(state.devices.count == 2)
    }
}
