import Logging
import Metrics
import Synchronization

/// Tells, loudly but not once per message, of record changes that arrived on another
/// `record-changes` partition than their key's (an upstream producer still keying by zone,
/// docs/ARCHITECTURE.md §9): each is counted in `herald_match_changes_misrouted_total` and
/// the 1st, 10th, 100th, … is logged at error with where it belongs. The match stage still
/// matches such a change, through `change-fanout` to its partition, so nothing is lost.
final class MisroutedChanges: Sendable {
    private let logger: Logger
    private let counter = Counter(label: "herald_match_changes_misrouted_total")
    private let seen = Atomic<Int>(0)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Notes a change with key `key` that belongs on `expected` and arrived on `partition` of `topic`.
    func note(key: String, expected: Int32, partitions: Int32, arrived partition: Int32, topic: String) {
        counter.increment()
        let count = seen.add(1, ordering: .relaxed).newValue
        guard Self.isLogged(count) else { return }
        logger.error(
            "record change on the wrong partition (\(count) so far): it belongs on partition \(expected) of \(partitions) (murmur2 of its key '\(key)'), it arrived on \(topic)[\(partition)]; key record-changes by container/database/zoneOwner (public database: container/public/recordName), not by zone (README, Upgrading). It is matched through change-fanout meanwhile.")
    }

    /// 1, 10, 100, …
    static func isLogged(_ count: Int) -> Bool {
        var power = 1
        while power < count { power *= 10 }
        return power == count
    }
}
