import Foundation
import HeraldDelivery
import HeraldModel
import HeraldPayload

/// An input the compose stage turns into its recipient's next notification: a match or a
/// schedule's firing. Both take the same path through `ComposeProcessor`.
protocol NotificationSource: WireDecodable {
    /// The user whose stream the notification goes to.
    var recipient: String { get }

    /// Decodes the input from its topic's value (JSON through `codec`, unless a form of its own).
    /// - Throws: `ModelError` naming what is wrong and where.
    init(inputValue data: Data, codec: WireCodec) throws(ModelError)

    /// Applies the input to its recipient's state (`Delivery.deliver`).
    func deliver(
        by delivery: Delivery, at position: InputPosition, state: inout UserStreamState, profile: UserProfile?, now: Int64
    ) throws(PayloadError) -> Delivery.Outcome
}

extension NotificationSource {
    init(inputValue data: Data, codec: WireCodec) throws(ModelError) {
        self = try codec.decode(Self.self, from: data)
    }
}

extension Match: NotificationSource {
    /// A match in the compact form or in either JSON form (`Match.init(matchesValue:codec:)`).
    init(inputValue data: Data, codec: WireCodec) throws(ModelError) {
        try self.init(matchesValue: data, codec: codec)
    }

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
