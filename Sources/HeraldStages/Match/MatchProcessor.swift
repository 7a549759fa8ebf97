import Foundation
import HeraldKafka
import HeraldModel

/// The match stage: each record change → one `Match` per fired subscription, keyed by the
/// recipient, to the `matches` topic; fires-once subscriptions are retired with a tombstone
/// (and one for the key it had before per-user IDs, while the topic still holds a record there).
/// Waits until the subscription table has caught up before the first batch.
public struct MatchProcessor: StageProcessor {
    public let table: SubscriptionTable
    public let matchesTopic: String
    public let subscriptionsTopic: String
    /// Values over this size are rejected rather than decoded. Default: 1 MiB.
    public var maxChangeBytes = 1 << 20

    /// The match stage over the catalog's `matches` and `subscriptions` topics.
    public init(table: SubscriptionTable, catalog: TopicCatalog) {
        self.table = table
        self.matchesTopic = catalog.name(TopicCatalog.matches)
        self.subscriptionsTopic = catalog.name(TopicCatalog.subscriptions)
    }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        await table.waitUntilReady()
        let codec = WireCodec()
        var writer = JSONWriter(capacity: 2048)
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
            var outputs: [OutgoingMessage] = []
            for match in table.matches(for: change) {
                guard let encoded = try? codec.encode(match, reusing: &writer) else {
                    throw .invalid("match for subscription \(match.subscription.subscriptionID) could not be encoded")
                }
                outputs.append(OutgoingMessage(topic: matchesTopic, key: match.partitionKey, value: encoded))
                if match.subscription.firesOnce {
                    let oldKey = table.oldKey(of: match.subscription)
                    let key = match.subscription.partitionKey
                    table.remove(key: key)
                    outputs.append(OutgoingMessage(topic: subscriptionsTopic, key: key, value: nil))
                    if let oldKey { outputs.append(OutgoingMessage(topic: subscriptionsTopic, key: oldKey, value: nil)) }
                }
            }
            return outputs
        }
    }
}
