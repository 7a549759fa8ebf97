import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel

/// Changelog values sorted out per partition.
struct RestoredLedgers {
    var records: [Int32: [RecordAssets]] = [:]
    var entries: [Int32: [AssetLedgerEntry]] = [:]
    /// The applied offsets of every input partition found, of either form.
    var applied = AppliedOffsets()
    /// Keys of the old form (`record-changes#3`) found, to delete once the new form is written.
    var legacyKeys: Set<String> = []

    init(
        topics: TopicNames, states: [String: (partition: Int32, value: Data)],
        entries stored: [String: (partition: Int32, value: Data)]
    ) throws(PipelineError) {
        let codec = WireCodec()
        for (key, stored) in states {
            func corrupt(_ problem: String) -> PipelineError {
                .corruptChangelog(topic: topics.assetRecords, partition: stored.partition, key: key, problem)
            }
            if key.contains("/") {
                let state: RecordAssets
                do { state = try codec.decode(RecordAssets.self, from: stored.value) } catch { throw corrupt("\(error)") }
                guard state.record == key else { throw corrupt("the state is of \(state.record)") }
                records[stored.partition, default: []].append(state)
            } else {
                try restoreAppliedOffset(key, stored.partition, stored.value, topics, corrupt)
            }
        }
        for (key, stored) in stored {
            let entry: AssetLedgerEntry
            do { entry = try codec.decode(AssetLedgerEntry.self, from: stored.value) } catch {
                throw .corruptChangelog(topic: topics.assetLedger, partition: stored.partition, key: key, "\(error)")
            }
            guard entry.fileChecksum == key else {
                throw .corruptChangelog(topic: topics.assetLedger, partition: stored.partition, key: key, "the entry is of \(entry.fileChecksum)")
            }
            entries[stored.partition, default: []].append(entry)
        }
    }

    /// The applied offsets of one input partition, as its ledger keeps them.
    func applied(_ topic: String, _ partition: Int32) -> AppliedOffsets {
        let source = InputPosition.source(topic: topic, partition: partition)
        return AppliedOffsets(applied.bySource.filter { $0.key == source })
    }

    /// An applied offset of the new form (key `herald.record-changes#3`, value
    /// `AppliedOffsets` of that one source) or of the old (`LegacyAppliedOffset`); where
    /// both are present (a crash between writing the new and deleting the old), the higher.
    private mutating func restoreAppliedOffset(
        _ key: String, _ partition: Int32, _ value: Data, _ topics: TopicNames, _ corrupt: (String) -> PipelineError
    ) throws(PipelineError) {
        let codec = WireCodec()
        let inputs = [topics.recordChanges, topics.assetReferences]
        var newFormError: (any Error)?
        if let topic = inputs.first(where: { InputPosition.source(topic: $0, partition: partition) == key }) {
            do {
                let offsets = try codec.decode(AppliedOffsets.self, from: value)
                guard offsets.bySource.count == 1, let offset = offsets.bySource[key] else {
                    throw corrupt("the applied offsets are of \(offsets.bySource.keys.sorted().joined(separator: ", "))")
                }
                applied.insert(InputPosition(topic: topic, partition: partition, offset: offset))
                return
            } catch let error as PipelineError {
                throw error
            } catch {
                newFormError = error  // with an empty topic prefix the old key is the same: try the old form
            }
        }
        let legacy: LegacyAppliedOffset
        do { legacy = try codec.decode(LegacyAppliedOffset.self, from: value) } catch { throw corrupt("\(newFormError ?? error)") }
        guard legacy.key == key, legacy.partition == partition else {
            throw corrupt("the applied offset is of \(legacy.key) on partition \(legacy.partition)")
        }
        let topic = legacy.input == .recordChanges ? topics.recordChanges : topics.assetReferences
        applied.insert(InputPosition(topic: topic, partition: partition, offset: legacy.offset))
        if InputPosition.source(topic: topic, partition: partition) != key { legacyKeys.insert(key) }
    }
}
