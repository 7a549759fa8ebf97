import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel

extension AssetLedgerProcessor {
    /// Restores the ledgers of the newly assigned partitions from the changelogs' same
    /// partition numbers: record states and both applied offsets from `asset-records`,
    /// checksum entries from `asset-ledger`. Values that do not decode, or whose key does not
    /// match, are skipped (the input they came from is replayed against the rest).
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {
        let recordPartitions = routes.partitions(partitions, playing: .recordChanges)
        let assetPartitions = routes.partitions(partitions, playing: .assetReferences)
        guard !recordPartitions.isEmpty || !assetPartitions.isEmpty else { return }
        let states = try await changelog.read(topic: topics.assetRecords, partitions: recordPartitions.union(assetPartitions).sorted())
        let entries = try await changelog.read(topic: topics.assetLedger, partitions: assetPartitions.sorted())
        let restored = try RestoredLedgers(topics: topics, states: states, entries: entries)
        ledgers.withLock { owned in
            owned.rollback()
            for partition in recordPartitions {
                owned.records[partition] = RecordAssetLedger(
                    appliedThrough: restored.applied[AppliedOffset.Input.recordChanges.key(partition)],
                    records: restored.records[partition] ?? [])
            }
            for partition in assetPartitions {
                owned.assets[partition] = AssetLedger(
                    appliedThrough: restored.applied[AppliedOffset.Input.assetReferences.key(partition)],
                    entries: restored.entries[partition] ?? [])
            }
        }
    }
}

/// Changelog values sorted out per partition.
private struct RestoredLedgers {
    var records: [Int32: [RecordAssets]] = [:]
    var entries: [Int32: [AssetLedgerEntry]] = [:]
    /// Applied offsets by key (`record-changes#3`).
    var applied: [String: Int64] = [:]

    init(
        topics: AssetLedgerProcessor.Topics, states: [String: (partition: Int32, value: Data)],
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
                let offset: AppliedOffset
                do { offset = try codec.decode(AppliedOffset.self, from: stored.value) } catch { throw corrupt("\(error)") }
                guard offset.key == key, offset.partition == stored.partition else {
                    throw corrupt("the applied offset is of \(offset.key) on partition \(offset.partition)")
                }
                applied[key] = offset.offset
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
}

extension AppliedOffset.Input {
    /// The changelog key of this input's partition, e.g. `record-changes#3`.
    func key(_ partition: Int32) -> String { "\(rawValue)#\(partition)" }
}
