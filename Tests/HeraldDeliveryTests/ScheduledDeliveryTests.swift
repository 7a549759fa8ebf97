import Foundation
import HeraldDelivery
import HeraldModel
import HeraldPayload
import Testing

@Suite("Delivery: schedule firings")
struct ScheduledDeliveryTests {
    private static func firing(_ id: String, at instant: Int64, badge: Int? = nil) -> ScheduledFiring {
        let schedule = Schedule(
            scheduleID: id, container: DeliveryTests.container, recipient: "_u1", fireDate: instant,
            alertBody: "Reminder", applicationIconBadgeNumber: badge)
        return ScheduledFiring(schedule: schedule, fireDate: instant, trigger: .date)
    }

    private static func position(_ offset: Int64) -> InputPosition {
        InputPosition(topic: "herald.schedule-firings", partition: 3, offset: offset)
    }

    @Test("firings share the user's sequence with matches; applicationIconBadgeNumber sets the badge, its absence keeps it")
    func sequenceAndBadge() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        _ = try delivery.deliver(DeliveryTests.match("c1"), at: DeliveryTests.position(0), state: &state, profile: nil, now: 1)
        #expect(state.badges[DeliveryTests.container] == 1)

        guard case .notification(let set) = try delivery.deliver(
            Self.firing("a", at: 100, badge: 9), at: Self.position(0), state: &state, profile: nil, now: 2)
        else { Issue.record("expected a notification"); return }
        #expect(set.notification.sequence == 2 && set.notification.badge == 9)
        #expect(state.badges[DeliveryTests.container] == 9)

        guard case .notification(let kept) = try delivery.deliver(
            Self.firing("b", at: 100), at: Self.position(1), state: &state, profile: nil, now: 3)
        else { Issue.record("expected a notification"); return }
        #expect(kept.notification.sequence == 3 && kept.notification.badge == nil)
        #expect(state.badges[DeliveryTests.container] == 9)

        // A badging match counts on from the schedule's number.
        _ = try delivery.deliver(DeliveryTests.match("c2"), at: DeliveryTests.position(1), state: &state, profile: nil, now: 4)
        #expect(state.badges[DeliveryTests.container] == 10)
    }

    @Test("a replayed input and the same firing delivered twice produce one notification")
    func replaysAndDuplicates() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        let firing = Self.firing("a", at: 100)
        guard case .notification = try delivery.deliver(firing, at: Self.position(5), state: &state, profile: nil, now: 1) else {
            Issue.record("expected a notification"); return
        }
        let after = state
        guard case .skipped = try delivery.deliver(firing, at: Self.position(5), state: &state, profile: nil, now: 2) else {
            Issue.record("a replay must be skipped"); return
        }
        #expect(state == after)
        guard case .skipped = try delivery.deliver(firing, at: Self.position(6), state: &state, profile: nil, now: 3) else {
            Issue.record("a duplicate firing must be skipped"); return
        }
        #expect(state.nextSequence == 2)
        // The next occurrence of the same schedule is a different firing.
        guard case .notification(let next) = try delivery.deliver(
            Self.firing("a", at: 200), at: Self.position(7), state: &state, profile: nil, now: 4)
        else { Issue.record("expected a notification"); return }
        #expect(next.notification.sequence == 2)
    }
}
