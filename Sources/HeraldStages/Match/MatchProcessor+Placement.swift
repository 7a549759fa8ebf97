import Foundation
import HeraldKafka
import HeraldModel

extension MatchProcessor {
    /// Where `change` is matched (docs/ARCHITECTURE.md §9): on each partition of its key
    /// (`SubscriptionPlacement.partition(of:)`) and of `SubscriptionPlacement.fanOutPartitions`,
    /// once. A change read from `change-fanout` is matched where it was read. One read from
    /// `record-changes` is matched here on the partition it was read from (when it is one of
    /// them) and on the others this instance holds loaded, and copied to `change-fanout` for
    /// the rest — also for its own partition when it arrived on another (a producer keying by
    /// the old zone key, reported by `MisroutedChanges`).
    func route(_ change: RecordChange, _ message: ConsumedMessage, _ value: Data) -> (partitions: [Int32], copies: [OutgoingMessage]) {
        guard message.topic == recordChangesTopic else { return ([message.partition], []) }
        let placement = table.placement
        let own = placement.partition(of: change)
        if own != message.partition {
            misrouted?.note(
                key: change.partitionKey, expected: own, partitions: placement.partitions, arrived: message.partition,
                topic: message.topic)
        }
        var partitions: [Int32] = []
        var copies: [OutgoingMessage] = []
        for partition in [own] + placement.fanOutPartitions(of: change) {
            // Partitions are held and released only between batches, so one loaded now is
            // matched here with the same subscriptions its copy would meet (saving the hop).
            if partition == message.partition || table.isLoaded(partition) {
                partitions.append(partition)
            } else {
                copies.append(OutgoingMessage(
                    topic: changeFanoutTopic, partition: partition, key: message.key, value: value, headers: message.headers))
            }
        }
        return (partitions, copies)
    }

    /// Holds the subscriptions of the newly assigned partition numbers and waits until they are loaded.
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        let numbers = Set(partitions.map(\.partition))
        table.hold(numbers)
        try await table.waitUntilLoaded(numbers)
    }

    /// Drops the subscriptions of partition numbers no longer assigned for either input.
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {
        table.release(Set(partitions.map(\.partition)))
    }
}
