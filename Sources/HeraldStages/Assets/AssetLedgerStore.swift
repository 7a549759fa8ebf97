import HeraldAssets
import HeraldKafka
import Synchronization

/// The asset ledgers of the partitions the stage owns, with the lifecycle of
/// `KeyedStateStore`: a batch works on the committed ledgers (`batch`), `commit()` keeps
/// what it changed once the runner reports it delivered, `restore` reads the changelogs of
/// newly assigned partitions and `revoke` drops partitions taken away.
///
/// Not a `KeyedStateStore` itself: its state is per partition (the applied offsets of each
/// input partition and the ledger of each side), it undoes in place (the cores' journals)
/// instead of staging copies, it writes two changelogs, one of them mixing record states and
/// applied offsets, and deletes keys with tombstones.
final class AssetLedgerStore: Sendable {
    private let partitions = Mutex(AssetLedgerPartitions())
    private let changelog: ChangelogReader
    private let topics: TopicNames
    private let routes: TopicRoutes<AssetLedgerProcessor.Input>

    init(topics: TopicNames, routes: TopicRoutes<AssetLedgerProcessor.Input>, changelog: ChangelogReader) {
        self.topics = topics
        self.routes = routes
        self.changelog = changelog
    }

    /// Runs a batch or tick on the ledgers as last committed (what an undelivered one
    /// changed is rolled back first).
    func batch<Result>(_ body: (inout AssetLedgerPartitions) throws -> Result) rethrows -> Result {
        try partitions.withLock { owned in
            owned.rollback()
            return try body(&owned)
        }
    }

    /// Reads the ledgers as they are, without changing them.
    func read<Result>(_ body: (AssetLedgerPartitions) -> Result) -> Result {
        partitions.withLock { body($0) }
    }

    /// What the last batch or tick changed is kept (its outputs were delivered).
    func commit() {
        partitions.withLock { $0.commit() }
    }

    /// Restores the ledgers of newly assigned partitions from the changelogs' same
    /// partition numbers: record states and both applied offsets from `asset-records` (of
    /// the new form or the old, `LegacyAppliedOffset`), checksum entries from `asset-ledger`.
    /// - Throws: `PipelineError.corruptChangelog` or `changelogIncomplete`: the partitions
    ///   are not processed from a wrong state (the runner retries).
    func restore(_ assigned: [TopicPartition]) async throws {
        let recordPartitions = routes.partitions(assigned, playing: .recordChanges)
        let assetPartitions = routes.partitions(assigned, playing: .assetReferences)
        guard !recordPartitions.isEmpty || !assetPartitions.isEmpty else { return }
        let states = try await changelog.read(topic: topics.assetRecords, partitions: recordPartitions.union(assetPartitions).sorted())
        let entries = try await changelog.read(topic: topics.assetLedger, partitions: assetPartitions.sorted())
        let restored = try RestoredLedgers(topics: topics, states: states, entries: entries)
        partitions.withLock { owned in
            owned.rollback()
            for partition in recordPartitions {
                owned.records[partition] = RecordAssetLedger(
                    applied: restored.applied(topics.recordChanges, partition), records: restored.records[partition] ?? [])
            }
            for partition in assetPartitions {
                owned.assets[partition] = AssetLedger(
                    applied: restored.applied(topics.assetReferences, partition), entries: restored.entries[partition] ?? [])
            }
            owned.restoreLegacyKeys(restored.legacyKeys, records: recordPartitions, assets: assetPartitions)
        }
    }

    /// Drops the ledgers of partitions taken away, after rolling back what is uncommitted
    /// (their new owner restores them).
    func revoke(_ revoked: [TopicPartition]) {
        let records = routes.partitions(revoked, playing: .recordChanges)
        let assets = routes.partitions(revoked, playing: .assetReferences)
        partitions.withLock { $0.drop(records: records, assets: assets) }
    }
}
