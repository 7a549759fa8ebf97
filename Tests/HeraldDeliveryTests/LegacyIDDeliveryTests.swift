import HeraldDelivery
import HeraldModel
import Testing

/// Upgrading to per-user subscription IDs: what was delivered under the IDs and keys of
/// before is recognized, so a change re-matched across the upgrade is not sent twice.
@Suite("Delivery across the per-user ID upgrade")
struct LegacyIDDeliveryTests {
    typealias D = DeliveryTests

    @Test("a change delivered under its old notification ID and matched again under the new one is skipped")
    func oldNotificationID() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        var old = D.match("c1")
        old.notificationID = old.legacyNotificationID
        guard case .notification = try delivery.deliver(old, at: D.position(1), state: &state, profile: nil, now: 1) else {
            Issue.record("the first delivery must be a notification")
            return
        }
        let again = D.match("c1")
        #expect(again.notificationID != old.notificationID)
        guard case .skipped = try delivery.deliver(again, at: D.position(2), state: &state, profile: nil, now: 2) else {
            Issue.record("the change was already sent under its old ID")
            return
        }
        #expect(state.nextSequence == 2)
    }

    @Test("a fires-once subscription recorded under its old key does not fire again")
    func oldFiredOnceKey() throws {
        let delivery = Delivery()
        var state = UserStreamState(recipient: "_u1")
        let match = D.match("c2", firesOnce: true)
        state.firedOnce = [match.subscription.legacyPartitionKey]
        guard case .skipped = try delivery.deliver(match, at: D.position(1), state: &state, profile: nil, now: 1) else {
            Issue.record("the subscription already fired under its old key")
            return
        }
        #expect(state.nextSequence == 1)
    }
}
