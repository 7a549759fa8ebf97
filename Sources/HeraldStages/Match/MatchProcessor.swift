import Foundation
import HeraldKafka
import HeraldModel
import Logging

/// The match stage: each record change → one `Match` per fired subscription, keyed by the
/// recipient, to the `matches` topic; fires-once subscriptions are retired with a tombstone.
///
/// Placement (docs/ARCHITECTURE.md §9): a change is matched against the subscriptions placed
/// on the partition it is consumed from (`PlacedSubscriptionTable`); a public or shared change
/// is also copied to `change-fanout` for the other partitions holding subscriptions it can
/// fire, where the same group matches it again, each partition's subscriptions once. A change
/// on another `record-changes` partition than its key's is matched on its own partition the
/// same way, and reported (`MisroutedChanges`). A batch waits until the subscriptions of its
/// partitions are loaded.
public struct MatchProcessor: StageProcessor {
    public let table: PlacedSubscriptionTable
    public let matchesTopic: String
    public let subscriptionsTopic: String
    public let recordChangesTopic: String
    public let changeFanoutTopic: String
    /// Values over this size are rejected rather than decoded. Default: 1 MiB.
    public var maxChangeBytes = 1 << 20
    /// Reports changes on the wrong partition; `nil`: they are only matched.
    let misrouted: MisroutedChanges?

    /// The match stage over the catalog's topics.
    /// - Parameter logger: where changes on the wrong partition are reported; `nil`: nowhere.
    public init(table: PlacedSubscriptionTable, catalog: TopicCatalog, logger: Logger? = nil) {
        self.table = table
        self.misrouted = logger.map(MisroutedChanges.init(logger:))
        self.matchesTopic = catalog.name(TopicCatalog.matches)
        self.subscriptionsTopic = catalog.name(TopicCatalog.subscriptions)
        self.recordChangesTopic = catalog.name(TopicCatalog.recordChanges)
        self.changeFanoutTopic = catalog.name(TopicCatalog.changeFanout)
    }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        try await table.waitUntilLoaded(Set(batch.map(\.partition)))
        let codec = WireCodec()
        var writer = CompactWriter(capacity: 2048)
        return StageResult.each(batch) { message throws(Rejection.Reason) in
            guard let value = message.value else { throw .invalid("a record change cannot be null") }
            guard value.count <= maxChangeBytes else {
                throw .tooLarge("record change of \(value.count) bytes exceeds \(maxChangeBytes)")
            }
            let change: RecordChange
            do {
                change = try codec.decode(RecordChange.self, from: value)
            } catch {
                throw .undecodable("\(error)")
            }
            let (partitions, copies) = route(change, message, value)
            var outputs = copies
            let fired = partitions.flatMap { partition in table.matches(for: change, on: partition).map { (partition, $0) } }
            for (partition, match) in fired {
                guard let encoded = try? match.compactEncoded(reusing: &writer) else {
                    throw .invalid("match for subscription \(match.subscription.subscriptionID) could not be encoded")
                }
                outputs.append(OutgoingMessage(topic: matchesTopic, key: match.partitionKey, value: encoded))
                if match.subscription.firesOnce {
                    let key = match.subscription.partitionKey
                    for copy in [partition] + table.remove(key: key, on: partition) {
                        outputs.append(OutgoingMessage(topic: subscriptionsTopic, partition: copy, key: key, value: nil))
                    }
                }
            }
            return outputs
        }
    }
}
