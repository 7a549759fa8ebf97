import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel

/// Changelog values sorted out per partition.
struct RestoredLedgers {
    var records: [Int32: [RecordAssets]] = [:]
    var entries: [Int32: [AssetLedgerEntry]] = [:]
    /// Applied offsets by key (`record-changes#3`).
    var applied: [String: Int64] = [:]

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
