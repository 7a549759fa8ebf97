import Foundation
import HeraldDelivery
import HeraldModel
import Testing

/// A fires-once subscription is remembered by its key and revision: the same save fires once
/// however often it is matched, and a save of the same ID after it fired is a new
/// subscription that fires again (docs/cloudkit-behaviour.md §1).
@Suite("Delivery: fires-once subscriptions by revision")
struct FiresOnceRevisionTests {
    private static func match(_ changeID: String, subscription id: String = "once", revision: Int64?) -> Match {
        var match = DeliveryTests.match(changeID, subscription: id, firesOnce: true)
        match.subscription.revision = revision
        return match
    }

    /// Delivers `match` at `offset`; whether it became a notification.
    private static func notified(
        _ match: Match, at offset: Int64, _ state: inout UserStreamState, delivery: Delivery = Delivery()
    ) throws -> Bool {
        if case .notification = try delivery.deliver(match, at: DeliveryTests.position(offset), state: &state, profile: nil, now: 1) {
            return true
        }
        return false
    }

    @Test("a save fires once; the same ID saved again (a new revision) fires again, once")
    func savedAgainFiresAgain() throws {
        var state = UserStreamState(recipient: "_u1")
        #expect(try Self.notified(Self.match("c1", revision: 100), at: 1, &state))
        #expect(try !Self.notified(Self.match("c2", revision: 100), at: 2, &state), "the same save matched twice")
        #expect(try Self.notified(Self.match("c3", revision: 200), at: 3, &state), "saved again after it fired")
        #expect(try !Self.notified(Self.match("c4", revision: 200), at: 4, &state))
        // The second save replaced the first: one entry for the subscription.
        #expect(state.firedOnce == ["iCloud.com.example.notes/private/_u1/once\u{1F}200"])
        #expect(state.nextSequence == 3)
    }

    @Test("a save without a revision fires once for good, and a save with one after it still fires")
    func withoutRevision() throws {
        var state = UserStreamState(recipient: "_u1")
        #expect(try Self.notified(Self.match("c1", revision: nil), at: 1, &state))
        #expect(try !Self.notified(Self.match("c2", revision: nil), at: 2, &state))
        #expect(try Self.notified(Self.match("c3", revision: 7), at: 3, &state))
        #expect(state.firedOnce == ["iCloud.com.example.notes/private/_u1/once\u{1F}7"])
    }

    @Test("a state remembers at most firedOnceLimit subscriptions, forgetting the first fired")
    func bounded() throws {
        var state = UserStreamState(recipient: "_u1")
        let limit = UserStreamState.firedOnceLimit
        for index in 0...limit {
            #expect(try Self.notified(Self.match("c\(index)", subscription: "once-\(index)", revision: 1), at: Int64(index), &state))
        }
        #expect(state.firedOnce.count == limit)
        #expect(state.firedOnce.first == "iCloud.com.example.notes/private/_u1/once-1\u{1F}1")
        #expect(try !Self.notified(Self.match("again", subscription: "once-\(limit)", revision: 1), at: Int64(limit + 1), &state))
    }

    @Test("the revision survives the compact match form and the changelog")
    func travels() throws {
        var writer = CompactWriter(capacity: 256)
        let match = Self.match("c1", revision: 1_795_300_000_000_123)
        let decoded = try Match(matchesValue: match.slimmed().compactEncoded(reusing: &writer))
        #expect(decoded.subscription.revision == 1_795_300_000_000_123)
        var state = UserStreamState(recipient: "_u1")
        #expect(try Self.notified(decoded, at: 1, &state))
        let codec = WireCodec()
        var restored = try codec.decode(UserStreamState.self, from: codec.encode(state))
        #expect(restored == state)
        #expect(try !Self.notified(Self.match("c2", revision: 1_795_300_000_000_123), at: 2, &restored))
    }
}
