import Foundation
import HeraldDelivery
import HeraldModel
import HeraldPayload

/// An input the compose stage turns into its recipient's next notification: a match or a
/// schedule's firing. Both take the same path through `ComposeProcessor`.
protocol NotificationSource: WireDecodable {
    /// The user whose stream the notification goes to.
    var recipient: String { get }

    /// Applies the input to its recipient's state (`Delivery.deliver`).
    func deliver(
        by delivery: Delivery, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?, now: Int64
    ) throws(PayloadError) -> Delivery.Outcome
}

extension Match: NotificationSource {
    func deliver(
        by delivery: Delivery, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?, now: Int64
    ) throws(PayloadError) -> Delivery.Outcome {
        try delivery.deliver(self, at: position, state: &state, profile: profile, now: now)
    }
}

extension ScheduledFiring: NotificationSource {
    func deliver(
        by delivery: Delivery, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?, now: Int64
    ) throws(PayloadError) -> Delivery.Outcome {
        try delivery.deliver(self, at: position, state: &state, profile: profile, now: now)
    }
}
