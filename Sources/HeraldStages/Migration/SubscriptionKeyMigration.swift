import Foundation
import HeraldKafka
import HeraldModel

/// The rewrite of a compacted `subscriptions` topic written before subscription IDs were per
/// user, or before subscriptions were placed: every live record under an old key
/// (`container/database/subscriptionID`) is published under its identity key
/// (`container/database/owner/subscriptionID`) on its placement partition
/// (`SubscriptionPlacement`, docs/ARCHITECTURE.md §9) and the old key is tombstoned; a live
/// record under its identity key on another partition is re-placed the same way (unless its
/// placement partition already has one: that newer record stays). Pure: fed the topic's
/// records in order, it says what to send.
///
/// Idempotent: a second run finds the old keys tombstoned and sends nothing. An old key whose
/// identity already has a record under its new key (the user saved it again since the
/// upgrade) is only tombstoned: the newer record stays. Live records that do not decode, or
/// whose key is neither form, are left as they are and counted.
public struct SubscriptionKeyMigration: Sendable {
    /// What a run found and did (or, in a dry run, would do).
    public struct Report: Sendable, Equatable, Codable, CustomStringConvertible {
        /// Records read (every partition, to the end).
        public var recordsRead = 0
        /// Live subscriptions (the latest record of a key is not a tombstone).
        public var subscriptions = 0
        /// Live subscriptions already under their identity key.
        public var current = 0
        /// Old-key subscriptions published under their identity key, their old key tombstoned.
        public var rekeyed = 0
        /// Old keys only tombstoned: their identity already had a record under its new key.
        public var superseded = 0
        /// Records under their identity key moved to their placement partition (or, when
        /// that partition already had one, only tombstoned where they were).
        public var replaced = 0
        /// Live records left as they are (undecodable, keyless, or a key of neither form).
        public var unreadable = 0
        /// Whether nothing was sent.
        public var dryRun = false

        public init() {}

        public var description: String {
            let verb = dryRun ? "would re-key" : "re-keyed"
            return "read \(recordsRead) records: \(subscriptions) subscriptions, \(current) already keyed by owner; "
                + "\(verb) \(rekeyed), \(dryRun ? "would tombstone" : "tombstoned") \(superseded) superseded old keys; "
                + "\(dryRun ? "would re-place" : "re-placed") \(replaced) on another partition than their owner's; "
                + "\(unreadable) unreadable left as they are"
        }
    }

    /// A key on one partition (a key written by different partitioners may be on several).
    private struct Slot: Hashable, Comparable {
        var key: String
        var partition: Int32

        static func < (a: Slot, b: Slot) -> Bool { (a.key, a.partition) < (b.key, b.partition) }
    }

    /// The latest value of each key on each partition (tombstones remove).
    private var latest: [Slot: Data] = [:]
    private var recordsRead = 0
    /// Records with a value but no key (nothing can address them).
    private var keyless = 0

    public init() {}

    /// Takes one record of the topic (in partition order).
    public mutating func read(_ message: ConsumedMessage) {
        recordsRead += 1
        guard let key = message.keyString else {
            if message.value != nil { keyless += 1 }
            return
        }
        latest[Slot(key: key, partition: message.partition)] = message.value
    }

    /// The messages to send to `topic` — first every re-keyed or re-placed subscription (on its
    /// placement partition, as the API writes it), then every tombstone of what they replace
    /// (on the partition of the record it deletes, whichever partitioner wrote that) — and the report.
    /// - Parameter placement: the topic's placement; `nil`: re-key only, partitioned by key.
    public func plan(
        topic: String, placement: SubscriptionPlacement? = nil
    ) -> (republish: [OutgoingMessage], tombstones: [OutgoingMessage], report: Report) {
        var report = Report()
        report.recordsRead = recordsRead
        report.subscriptions = latest.count
        report.unreadable = keyless
        let codec = WireCodec()
        var republish: [OutgoingMessage] = []
        var tombstones: [OutgoingMessage] = []
        let liveKeys = Set(latest.keys.map(\.key))
        for (slot, value) in latest.sorted(by: { $0.key < $1.key }) {
            let key = slot.key
            guard let subscription = try? codec.decode(Subscription.self, from: value) else {
                report.unreadable += 1
                continue
            }
            let identity = subscription.partitionKey
            let target = placement?.partition(of: subscription)
            if key == identity, let target, slot.partition != target {
                report.replaced += 1
                if latest[Slot(key: key, partition: target)] == nil {
                    republish.append(OutgoingMessage(topic: topic, partition: target, key: identity, value: value))
                }
                tombstones.append(OutgoingMessage(topic: topic, partition: slot.partition, key: key, value: nil))
            } else if key == identity {
                report.current += 1
            } else if key == subscription.legacyPartitionKey {
                if !liveKeys.contains(identity) {
                    report.rekeyed += 1
                    republish.append(OutgoingMessage(topic: topic, partition: target, key: identity, value: value))
                } else {
                    report.superseded += 1
                }
                tombstones.append(OutgoingMessage(topic: topic, partition: slot.partition, key: key, value: nil))
            } else {
                report.unreadable += 1
            }
        }
        return (republish, tombstones, report)
    }
}
