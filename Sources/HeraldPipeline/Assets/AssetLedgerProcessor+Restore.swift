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
        let recordPartitions = Set(partitions.filter { $0.topic == topics.recordChanges }.map(\.partition))
        let assetPartitions = Set(partitions.filter { $0.topic == topics.assetReferences }.map(\.partition))
        guard !recordPartitions.isEmpty || !assetPartitions.isEmpty else { return }
        let states = try await changelog.read(topic: topics.assetRecords, partitions: recordPartitions.union(assetPartitions).sorted())
        let entries = try await changelog.read(topic: topics.assetLedger, partitions: assetPartitions.sorted())
        let restored = RestoredLedgers(states: states, entries: entries)
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

    init(states: [String: (partition: Int32, value: Data)], entries stored: [String: (partition: Int32, value: Data)]) {
        let codec = WireCodec()
        for (key, stored) in states {
            if key.contains("/") {
                guard let state = try? codec.decode(RecordAssets.self, from: stored.value), state.record == key else { continue }
                records[stored.partition, default: []].append(state)
            } else {
                guard let offset = try? codec.decode(AppliedOffset.self, from: stored.value),
                    offset.key == key, offset.partition == stored.partition
                else { continue }
                applied[key] = offset.offset
            }
        }
        for (key, stored) in stored {
            guard let entry = try? codec.decode(AssetLedgerEntry.self, from: stored.value), entry.fileChecksum == key else { continue }
            entries[stored.partition, default: []].append(entry)
        }
    }
}

extension AppliedOffset.Input {
    /// The changelog key of this input's partition, e.g. `record-changes#3`.
    func key(_ partition: Int32) -> String { "\(rawValue)#\(partition)" }
}
