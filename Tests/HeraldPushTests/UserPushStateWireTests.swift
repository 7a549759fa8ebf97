import Foundation
import HeraldModel
import HeraldPush
import Testing

/// `UserPushState`'s fast writer (the push stage's `push-state` changelog) gives the bytes
/// Foundation's encoder gives, and they read back as the same state.
@Suite("Push state: fast writer against Foundation's")
struct UserPushStateWireTests {
    let codec = WireCodec()

    /// Texts with what JSON escapes or sorts unusually: quotes, slashes, control characters, non-ASCII.
    static let texts = ["a", "Zoë", "with \"quotes\"", "a/b\\c", "tab\there", "line\nbreak", "😀", "", "B", "é", "\u{1}"]

    func state(_ seed: Int) -> UserPushState {
        var random = SplitMix64(seed: "push-state-\(seed)")
        func pick() -> String { Self.texts[Int(random.next() % UInt64(Self.texts.count))] }
        func chance() -> Bool { random.next() % 2 == 0 }
        var state = UserPushState(user: "_u" + pick())
        state.appliedDevices = Int64(random.next() % 1000) - 1
        for index in 0..<Int(random.next() % 4) {
            let token = String(repeating: "ab", count: 32) + String(index)
            let fcm = chance()
            let device = Device(
                token: token, user: state.user, container: "iCloud." + pick(), platform: fcm ? .fcm : .apns,
                environment: fcm ? nil : (chance() ? .production : .development), topic: chance() ? "com." + pick() : nil,
                appID: chance() ? "1:2:android:" + pick() : nil, locale: chance() ? "fr-" + pick() : nil,
                registeredAt: Int64(random.next() % 1_000_000))
            state.devices[device.userKey] = device
            state.sent[device.userKey + pick()] = Int64(random.next() % 100)
        }
        for index in 0..<Int(random.next() % 3) {
            let payload: JSONValue = [
                "aps": ["alert": .string(pick()), "badge": .integer(Int64(index))], "ck": ["nid": .string(pick()), "x": 1.5],
            ]
            state.pending.append(PendingPush(
                deviceKey: pick(), notificationID: "n\(index)" + pick(), offset: Int64(index),
                apns: APNsPush(pushType: chance() ? .alert : .background, priority: chance() ? .immediate : .conservesPower,
                    collapseID: chance() ? pick() + "c" : nil, payload: payload),
                expiration: Int64(random.next() % 10_000), createdAt: 1_795_300_000_000, attempts: index, due: Int64(index) * 500,
                lastReason: "503 " + pick()))
        }
        state.recent = (0..<Int(random.next() % 5)).map { "id-\($0)" + pick() }
        for _ in 0..<Int(random.next() % 6) { state.handled.insert(Int64(random.next() % 12)) }
        return state
    }

    @Test("random states: the same bytes as Foundation's encoder, and the same state read back", arguments: 0..<4)
    func sameBytes(batch: Int) throws {
        for seed in (batch * 100)..<(batch * 100 + 100) {
            let state = state(seed)
            let fast = try codec.encode(state)
            #expect(fast == (try codec.encodeWithFoundation(state)), "seed \(seed): \(String(decoding: fast, as: UTF8.self))")
            #expect(try codec.decode(UserPushState.self, from: fast) == state)
        }
    }

    @Test("a state written before handled sequences existed reads back with none")
    func legacyState() throws {
        let legacy = #"{"appliedDevices":3,"devices":{},"pending":[],"recent":["n1","n2"],"sent":{},"user":"_u1"}"#
        let state = try codec.decode(UserPushState.self, from: Data(legacy.utf8))
        #expect(state.handled == HandledSequences())
        #expect(state.recent == ["n1", "n2"] && state.appliedDevices == 3)
    }

    @Test("an empty state and one with a payload from encoded bytes")
    func edgeCases() throws {
        let empty = UserPushState(user: "_u1")
        #expect(try codec.encode(empty) == codec.encodeWithFoundation(empty))
        var state = UserPushState(user: "_u2")
        state.pending = [PendingPush(
            deviceKey: "k", notificationID: "n", offset: 1,
            apns: APNsPush(pushType: .alert, priority: .immediate, encodedPayload: Array(#"{"aps":{"alert":"hi"}}"#.utf8)),
            expiration: 0, createdAt: 1, attempts: 0, due: 2, lastReason: "")]
        #expect(try codec.encode(state) == codec.encodeWithFoundation(state))
    }
}
