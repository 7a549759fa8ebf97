import Foundation
import HeraldDelivery
import HeraldModel
import Testing

/// The compose stage's changelog entry written by the fast writer is byte for byte what
/// Foundation's encoder writes, and reads back to the same state.
@Suite("UserStreamState: fast writer")
struct UserStreamStateWireTests {
    static var states: [UserStreamState] {
        var empty = UserStreamState(recipient: "_u1")
        empty.nextSequence = 1
        var full = UserStreamState(recipient: "_é\"/\\\u{1}😀")
        full.nextSequence = 9_000_000_000
        full.badges = ["iCloud.b": 3, "iCloud.a": 0, "iCloud.É": 12, "iCloud.Z": 1]
        full.firedOnce = ["c/private/_u1/a", "c/private/_u1/b\n"]
        full.appliedOffsets = ["herald.matches#3": 1207, "herald.badge-resets#3": 12, "herald.matches#10": 0]
        for number in 0..<600 { full.remember("id-\(number)") }
        return [empty, full]
    }

    @Test("the same bytes as Foundation, and the same state back", arguments: states)
    func sameBytes(state: UserStreamState) throws {
        let codec = WireCodec()
        let fast = try codec.encode(state)
        #expect(fast == (try codec.encodeWithFoundation(state)))
        #expect(try codec.decode(UserStreamState.self, from: fast) == state)
    }
}
