import HeraldKafka
import HeraldModel

/// Where subscriptions and record changes live among the partitions (docs/ARCHITECTURE.md §9):
/// a subscription on the partition of its `Subscription.placementKey` of the `subscriptions`
/// topic, a record change on the partition of its `RecordChange.partitionKey` of
/// `record-changes`, with murmur2 as every Herald producer (`KeyPartitioner`). Both topics
/// have the catalog's partition count, so partition *n* of one goes with partition *n* of
/// the other, and of the match stage's `change-fanout` topic.
public struct SubscriptionPlacement: Sendable, Hashable {
    /// Partitions of every Herald topic (at least 1).
    public let partitions: Int32

    public init(partitions: Int32) {
        precondition(partitions > 0, "a topic has at least one partition")
        self.partitions = partitions
    }

    /// The `subscriptions` partition that holds `subscription` (and its tombstone).
    public func partition(of subscription: Subscription) -> Int32 {
        partition(placementKey: subscription.placementKey)
    }

    /// The `subscriptions` partition of a subscription whose `Subscription.placementKey` is `key`.
    public func partition(placementKey key: String) -> Int32 {
        KeyPartitioner.partition(of: key, partitions: partitions)
    }

    /// The `record-changes` partition `change` belongs on.
    public func partition(of change: RecordChange) -> Int32 {
        KeyPartitioner.partition(of: change.partitionKey, partitions: partitions)
    }

    /// The partitions other than its own (`partition(of:)`, where the match stage matches it
    /// first) that hold subscriptions `change` can fire, to which the match stage copies it:
    /// every other partition for a public change (public subscriptions are spread by their
    /// own key), those of the named participants for a shared change (their database
    /// subscriptions; query and zone subscriptions see only zones their owner owns, on the
    /// change's own partition), none for a private change. Sorted, without repeats.
    public func fanOutPartitions(of change: RecordChange) -> [Int32] {
        let own = partition(of: change)
        switch change.database {
        case .private:
            return []
        case .public:
            return (0..<partitions).filter { $0 != own }
        case .shared:
            let placed = Set((change.participants ?? []).map {
                KeyPartitioner.partition(
                    of: Subscription.placementKey(container: change.container, database: .shared, owner: $0),
                    partitions: partitions)
            })
            return placed.subtracting([own]).sorted()
        }
    }
}
