import HeraldModel

/// The parts many subscriptions of an index have in common — notification infos and
/// `firesOn` lists — kept once each and counted, so the last subscription that uses one
/// frees it.
struct SharedParts: Sendable {
    private struct Use<Part: Sendable>: Sendable {
        var part: Part
        var count: Int
    }

    /// A notification info as a key: hashed once, where its subscription was prepared (any
    /// thread), not again under the table's lock — hashing every string of the info while
    /// filing was a tenth of filing a loaded subscription.
    private struct InfoKey: Hashable, Sendable {
        let info: SharedNotificationInfo

        static func == (lhs: InfoKey, rhs: InfoKey) -> Bool {
            lhs.info === rhs.info || (lhs.info.hash == rhs.info.hash && lhs.info.value == rhs.info.value)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(info.hash)
        }
    }

    private var infos: [InfoKey: Use<SharedNotificationInfo>] = [:]
    private var firesOns: [[Subscription.Event]: Use<[Subscription.Event]>] = [:]

    /// The subscription pointing to the shared copies of its parts, in `slot` of its bucket.
    mutating func adopt(_ subscription: IndexedSubscription, slot: Int32) -> IndexedSubscription {
        let info = Self.use(&infos, InfoKey(info: subscription.info), new: subscription.info)
        let firesOn = Self.use(&firesOns, subscription.firesOn, new: subscription.firesOn)
        return subscription.sharing(info, firesOn: firesOn, slot: slot)
    }

    /// Stops counting the parts of a subscription leaving the index.
    mutating func release(_ subscription: IndexedSubscription) {
        Self.release(&infos, InfoKey(info: subscription.info))
        Self.release(&firesOns, subscription.firesOn)
    }

    private static func use<Key: Hashable, Part>(_ uses: inout [Key: Use<Part>], _ key: Key, new: Part) -> Part {
        if let existing = uses[key] {
            uses[key]?.count += 1
            return existing.part
        }
        uses[key] = Use(part: new, count: 1)
        return new
    }

    private static func release<Key: Hashable, Part>(_ uses: inout [Key: Use<Part>], _ key: Key) {
        guard let use = uses[key] else { return }
        uses[key] = use.count > 1 ? Use(part: use.part, count: use.count - 1) : nil
    }
}
