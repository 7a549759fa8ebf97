import Foundation
import HeraldDelivery
import HeraldModel
import HeraldPayload
import Testing

@Suite("Delivery: per-user sequence, badges, replays")
struct DeliveryTests {
    static let container = "iCloud.com.example.notes"

    static func match(_ changeID: String, subscription id: String = "s1", badges: Bool = true, firesOnce: Bool = false) -> Match {
        let subscription = Subscription(
            subscriptionID: id, subscriptionType: .query, container: container, database: .private,
            ownerRecordName: "_u1", query: SubscriptionQuery(recordType: "Note", predicate: "TRUEPREDICATE"),
            firesOn: [.create], firesOnce: firesOnce,
            notificationInfo: NotificationInfo(alertBody: "Changed", shouldBadge: badges))
        let change = RecordChange(
            changeID: changeID, container: container, database: .private,
            zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_u1"), recordType: "Note", recordName: "n-\(changeID)",
            kind: .create, fields: ["title": .string("x")], timestamp: 1_795_300_000_000)
        return Match(recipient: "_u1", notificationType: .query, queryNotificationReason: .recordCreated,
                     subscription: subscription, change: change)
    }

    static func position(_ offset: Int64, topic: String = "herald.matches") -> InputPosition {
        InputPosition(topic: topic, partition: 3, offset: offset)
    }

    private func notification(_ outcome: Delivery.Outcome) throws -> HeraldNotification {
        guard case .notification(let composed) = outcome else {
            Issue.record("expected a notification, got \(outcome)")
            throw CancellationError()
        }
        return composed.notification
    }

    @Test("sequence numbers and the badge count grow per notification; the badge is in the push")
    func sequenceAndBadge() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        let first = try notification(try delivery.deliver(Self.match("c1"), at: Self.position(10), state: &state, profile: nil, now: 1))
        let second = try notification(try delivery.deliver(Self.match("c2"), at: Self.position(11), state: &state, profile: nil, now: 2))
        #expect(first.sequence == 1 && second.sequence == 2)
        #expect(first.badge == 1 && second.badge == 2)
        #expect(second.apns?.payload.objectValue?["aps"]?.objectValue?["badge"] == .integer(2))
        #expect(state.nextSequence == 3 && state.badges[Self.container] == 2)
        let silent = try notification(try delivery.deliver(
            Self.match("c3", subscription: "s2", badges: false), at: Self.position(12), state: &state, profile: nil, now: 3))
        #expect(silent.badge == nil && state.badges[Self.container] == 2)
    }

    @Test("an input at or below the applied offset is a replay: skipped, state unchanged")
    func replaysAreSkipped() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        _ = try delivery.deliver(Self.match("c1"), at: Self.position(10), state: &state, profile: nil, now: 1)
        let before = state
        guard case .skipped = try delivery.deliver(Self.match("c1"), at: Self.position(10), state: &state, profile: nil, now: 9) else {
            Issue.record("a replay must be skipped")
            return
        }
        #expect(state == before)
        // Another partition's offsets are tracked on their own.
        let other = try notification(try delivery.deliver(
            Self.match("c9"), at: Self.position(5, topic: "herald.other"), state: &state, profile: nil, now: 2))
        #expect(other.sequence == 2)
    }

    @Test("the same change delivered twice upstream (same notification ID) is sent once")
    func upstreamDuplicates() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        _ = try notification(try delivery.deliver(Self.match("c1"), at: Self.position(1), state: &state, profile: nil, now: 1))
        guard case .skipped = try delivery.deliver(Self.match("c1"), at: Self.position(2), state: &state, profile: nil, now: 2) else {
            Issue.record("a duplicate change must be skipped")
            return
        }
        #expect(state.nextSequence == 2 && state.badges[Self.container] == 1)
    }

    @Test("a fires-once subscription fires once per user even if matched twice")
    func firesOnce() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        _ = try notification(try delivery.deliver(Self.match("c1", firesOnce: true), at: Self.position(1), state: &state, profile: nil, now: 1))
        guard case .skipped = try delivery.deliver(Self.match("c2", firesOnce: true), at: Self.position(2), state: &state, profile: nil, now: 2) else {
            Issue.record("the second firing must be skipped")
            return
        }
        #expect(state.nextSequence == 2)
        #expect(state.appliedOffsets.contains(Self.position(2)))
    }

    @Test("a badge reset sets the count the next notification counts from, once")
    func badgeReset() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        for offset in 0..<3 { _ = try delivery.deliver(Self.match("c\(offset)"), at: Self.position(Int64(offset)), state: &state, profile: nil, now: 1) }
        let reset = BadgeReset(recipient: "_u1", containerIdentifier: Self.container, badge: 0, requestedAt: 5)
        #expect(delivery.apply(reset, at: Self.position(0, topic: "herald.badge-resets"), state: &state))
        #expect(!delivery.apply(reset, at: Self.position(0, topic: "herald.badge-resets"), state: &state))
        let next = try notification(try delivery.deliver(Self.match("c9"), at: Self.position(3), state: &state, profile: nil, now: 1))
        #expect(next.badge == 1)
    }

    @Test("the state round-trips through the changelog encoding, and bad states are refused")
    func stateCodec() throws {
        var state = UserStreamState(recipient: "_u1")
        state.nextSequence = 7
        state.badges = [Self.container: 3]
        state.firedOnce = ["a/b/c"]
        state.appliedOffsets.insert(Self.position(42))
        let codec = WireCodec()
        #expect(try codec.decode(UserStreamState.self, from: codec.encode(state)) == state)
        #expect(throws: (any Error).self) {
            try codec.decode(UserStreamState.self, from: Data(#"{"recipient":"_u1","nextSequence":0}"#.utf8))
        }
    }
}
