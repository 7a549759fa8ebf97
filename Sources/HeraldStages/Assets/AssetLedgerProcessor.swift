import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel
import Logging
import Metrics

/// The asset ledger stage (docs/ARCHITECTURE.md §1.1): counts, per file checksum, the records that refer to
/// it, and announces files no record has referred to for the grace period.
///
/// - `record-changes` (keyed by owner, or by record in the public database): each change becomes the record's set of files; the
///   difference with the last set goes to `asset-refs` (keyed by checksum, so one owner
///   counts each checksum) and the record's state to the `asset-records` changelog, on the
///   input's partition number.
/// - `asset-refs`: each event updates the checksum's entry, written to the `asset-ledger`
///   changelog on the input's partition number.
/// - `tick()`: files unreferenced for the grace period go to `asset-gc` (keyed by checksum),
///   and their entries are deleted from `asset-ledger` (tombstones).
///
/// Validation of `record-changes` belongs to the match stage, which reads the same topic:
/// it alone dead-letters a change that is null, too large or does not decode, so each bad
/// change has exactly one dead letter. This stage skips such a change, logs it at debug and
/// counts it in `herald_stage_input_skipped_total{stage="assets",code=…}`. Its own inputs
/// (`asset-refs`) it validates and dead-letters itself.
///
/// Exactness: references are counted by record, not by change, and each side remembers the
/// last input offset it applied (per record or checksum, and per input partition as the
/// `AppliedOffsets` compose and schedule keep, in `asset-records` under the key
/// `<prefix>record-changes#N` or `<prefix>asset-refs#N`; the old form, `LegacyAppliedOffset`,
/// is still read on restore), so replays after a crash or a rebalance count nothing twice. What a
/// batch or tick changes becomes final only once the runner reports it delivered; otherwise
/// it is rolled back and redone. Both changelogs rely on every Herald topic having the same
/// partition count, and on the range assignor giving an instance the same partition numbers
/// of both inputs.
public final class AssetLedgerProcessor: StageProcessor {
    public let topics: TopicNames
    /// The input topics' roles.
    let routes: TopicRoutes<Input>
    public let configuration: Configuration
    private let now: @Sendable () -> Int64
    private let ledgers: AssetLedgerStore
    let logger: Logger

    /// The asset ledger over the context's catalog, changelogs (`asset-records` and
    /// `asset-ledger`, read when partitions are assigned), logger and clock (collections are
    /// due by it, milliseconds since 1970).
    public init(context: StageContext, configuration: Configuration = Configuration()) {
        self.logger = context.logger
        let topics = context.topics
        self.topics = topics
        let routes = TopicRoutes<Input>(stage: "assets", [topics.recordChanges: .recordChanges, topics.assetReferences: .assetReferences])
        self.routes = routes
        self.ledgers = AssetLedgerStore(topics: topics, routes: routes, changelog: context.changelogReader(for: "assets"))
        self.configuration = configuration
        self.now = context.clock
    }

    public var tickInterval: Duration? { configuration.tickInterval }

    /// Stored and referenced bytes of the checksums this instance owns.
    public var stats: AssetStats { ledgers.read(\.stats) }

    /// The ledger entry of a file, when this instance owns its checksum.
    public func entry(for fileChecksum: String) -> AssetLedgerEntry? {
        ledgers.read { owned in owned.assets.values.lazy.compactMap { $0[fileChecksum] }.first }
    }

    public func process(_ batch: [ConsumedMessage]) async throws -> StageResult {
        ledgers.batch { owned in
            var changed = ChangedStates()
            var result = StageResult.each(batch) { message throws(Rejection.Reason) in
                switch try routes.role(of: message) {
                case .recordChanges:
                    do throws(Rejection.Reason) {
                        let value = try message.requiredValue(maxBytes: configuration.maxInputBytes)
                        return try applyChange(value, message, &owned, &changed)
                    } catch {
                        skip(message, error)
                        return []
                    }
                case .assetReferences:
                    try applyReference(try message.requiredValue(maxBytes: configuration.maxInputBytes), message, &owned, &changed)
                    return []
                }
            }
            result.outputs += changed.outputs(topics, &owned)
            return result
        }
    }

    /// Files unreferenced for the grace period: collection events and tombstones.
    public func tick() async throws -> StageResult {
        let time = now()
        return ledgers.batch { owned in
            var outputs: [OutgoingMessage] = []
            for partition in owned.assets.keys.sorted() {
                owned.touch(assets: partition)
                let due = owned.assets[partition]?.collectDue(now: time, gracePeriod: configuration.gracePeriod) ?? []
                for collection in due {
                    outputs.append(OutgoingMessage(
                        topic: topics.assetCollection, key: collection.partitionKey, value: Self.encode(collection)))
                    outputs.append(OutgoingMessage(
                        topic: topics.assetLedger, partition: partition, key: collection.fileChecksum, value: nil))
                }
            }
            return StageResult(outputs: outputs)
        }
    }

    public func delivered(_ batch: [ConsumedMessage]) async {
        ledgers.commit()
    }

    /// Restores the ledgers of the newly assigned partitions from the changelogs. Values that
    /// do not decode, or whose key does not match, stop the restore (the runner retries).
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        try await ledgers.restore(partitions)
    }

    /// Drops the ledgers of partitions taken away (their new owner restores them).
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {
        ledgers.revoke(partitions)
    }

    /// A record change the match stage dead-letters: counted and logged here, not dead-lettered twice.
    private func skip(_ message: ConsumedMessage, _ reason: Rejection.Reason) {
        Counter(label: "herald_stage_input_skipped_total", dimensions: [("stage", "assets"), ("code", reason.code)]).increment()
        logger.debug("record change skipped (the match stage dead-letters it): \(reason)", metadata: [
            PipelineLogKey.partition: .string(message.topicPartition.description),
            PipelineLogKey.offset: .string(String(message.offset)),
        ])
    }

    /// A record change → its reference events; the record's new state is kept for the batch's end.
    private func applyChange(
        _ value: Data, _ message: ConsumedMessage, _ owned: inout AssetLedgerPartitions, _ changed: inout ChangedStates
    ) throws(Rejection.Reason) -> [OutgoingMessage] {
        let change: RecordChange
        do { change = try WireCodec().decode(RecordChange.self, from: value) } catch { throw .undecodable("\(error)") }
        owned.touch(records: message.partition)
        guard let update = owned.records[message.partition, default: RecordAssetLedger()].apply(change, at: message.position) else {
            return []
        }
        changed.records[message.partition, default: [:]].updateValue(update.state, forKey: update.record)
        return update.events.map {
            OutgoingMessage(topic: topics.assetReferences, key: $0.partitionKey, value: Self.encode($0))
        }
    }

    /// A reference event → the checksum's new entry, kept for the batch's end.
    private func applyReference(
        _ value: Data, _ message: ConsumedMessage, _ owned: inout AssetLedgerPartitions, _ changed: inout ChangedStates
    ) throws(Rejection.Reason) {
        let event: AssetReferenceEvent
        do { event = try WireCodec().decode(AssetReferenceEvent.self, from: value) } catch { throw .undecodable("\(error)") }
        guard message.keyString == event.fileChecksum else {
            throw .invalid("key \(message.keyString ?? "null") is not the event's fileChecksum \(event.fileChecksum)")
        }
        owned.touch(assets: message.partition)
        guard let entry = owned.assets[message.partition, default: AssetLedger()].apply(event, at: message.position) else { return }
        changed.entries[message.partition, default: [:]][entry.fileChecksum] = entry
    }

    /// Encodes a value of the ledger's wire formats, which hold only strings, integers and
    /// booleans: failing would be a programming error.
    static func encode<T: Encodable>(_ value: T) -> Data {
        do {
            return try WireCodec().encode(value)
        } catch {
            preconditionFailure("encoding \(T.self) cannot fail: \(error)")
        }
    }
}

/// The states a batch changed, per partition: written once each, at the batch's end, with
/// the partitions' applied offsets.
struct ChangedStates {
    var records: [Int32: [String: RecordAssets?]] = [:]
    var entries: [Int32: [String: AssetLedgerEntry]] = [:]

    /// The changed states and the applied offsets of their partitions, for `asset-records`
    /// and `asset-ledger`; deletes the old-form applied-offset keys these replace.
    func outputs(_ topics: TopicNames, _ owned: inout AssetLedgerPartitions) -> [OutgoingMessage] {
        var outputs: [OutgoingMessage] = []
        for (partition, states) in records.sorted(by: { $0.key < $1.key }) {
            for (record, state) in states.sorted(by: { $0.key < $1.key }) {
                outputs.append(OutgoingMessage(
                    topic: topics.assetRecords, partition: partition, key: record, value: state.map { AssetLedgerProcessor.encode($0) }))
            }
            if let applied = owned.records[partition]?.applied {
                outputs += Self.appliedOffsets(applied, of: topics.recordChanges, .recordChanges, partition, topics, &owned)
            }
        }
        for (partition, states) in entries.sorted(by: { $0.key < $1.key }) {
            for (_, entry) in states.sorted(by: { $0.key < $1.key }) {
                outputs.append(OutgoingMessage(
                    topic: topics.assetLedger, partition: partition, key: entry.fileChecksum,
                    value: AssetLedgerProcessor.encode(entry)))
            }
            if let applied = owned.assets[partition]?.applied {
                outputs += Self.appliedOffsets(applied, of: topics.assetReferences, .assetReferences, partition, topics, &owned)
            }
        }
        return outputs
    }

    /// An input partition's applied offsets under its source (`herald.record-changes#3`),
    /// then, the first time, a tombstone for the old-form key of the same input partition
    /// (written after the new value, so a crash in between leaves both, never neither).
    private static func appliedOffsets(
        _ applied: AppliedOffsets, of topic: String, _ input: LegacyAppliedOffset.Input, _ partition: Int32,
        _ topics: TopicNames, _ owned: inout AssetLedgerPartitions
    ) -> [OutgoingMessage] {
        let key = InputPosition.source(topic: topic, partition: partition)
        guard !applied.bySource.isEmpty else { return [] }
        var messages = [OutgoingMessage(
            topic: topics.assetRecords, partition: partition, key: key, value: AssetLedgerProcessor.encode(applied))]
        let legacyKey = input.key(partition)
        if owned.takeLegacyKey(legacyKey) {
            messages.append(OutgoingMessage(topic: topics.assetRecords, partition: partition, key: legacyKey, value: nil))
        }
        return messages
    }
}
