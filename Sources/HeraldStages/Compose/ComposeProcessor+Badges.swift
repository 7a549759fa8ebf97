import HeraldDelivery
import HeraldKafka
import HeraldModel

extension ComposeProcessor {
    /// The `BadgeCount` records of what an input changed in a user's badges, for topic
    /// `badges` (docs/ARCHITECTURE.md §5.4): one per container whose count differs between
    /// `before` and `after` (plus `always`, if given), in container order, keyed
    /// `container/recipient` on the input's partition (the recipient's). Counts are absolute,
    /// so the reader ends at the same value however often a record is replayed.
    /// - Throws: `Rejection.Reason` when a record cannot be encoded (it always can).
    func badgeMessages(
        from before: UserStreamState, to after: UserStreamState, partition: Int32, always: String? = nil
    ) throws(Rejection.Reason) -> [OutgoingMessage] {
        let codec = WireCodec()
        var messages: [OutgoingMessage] = []
        for (container, badge) in after.badges.sorted(by: { $0.key < $1.key })
        where container == always || before.badges[container] != badge {
            let count = BadgeCount(recipient: after.recipient, containerIdentifier: container, badge: badge)
            guard let value = try? codec.encode(count) else {
                throw .invalid("the badge count of \(count.recipient) in \(container) could not be encoded")
            }
            messages.append(OutgoingMessage(topic: topics.badges, partition: partition, key: count.key, value: value))
        }
        return messages
    }
}
