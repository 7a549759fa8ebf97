import HeraldAssets

/// The ledgers of the partitions an instance owns — the record side per `record-changes`
/// partition, the checksum side per `asset-refs` partition — and which of them changed
/// since the last commit. Mutated in place under `AssetLedgerStore`'s lock.
struct AssetLedgerPartitions: Sendable {
    var records: [Int32: RecordAssetLedger] = [:]
    var assets: [Int32: AssetLedger] = [:]
    private var touchedRecords: Set<Int32> = []
    private var touchedAssets: Set<Int32> = []
    /// Applied-offset keys of the old form (`LegacyAppliedOffset`) still in `asset-records`:
    /// each is deleted with the first applied offsets of the new form its input partition writes.
    private(set) var legacyKeys: Set<String> = []
    /// The old keys the current batch deletes (gone for good once it is delivered).
    private var deletingLegacyKeys: Set<String> = []

    /// Notes that a partition's ledger may change (so that commit and rollback reach it).
    mutating func touch(records partition: Int32) { touchedRecords.insert(partition) }
    mutating func touch(assets partition: Int32) { touchedAssets.insert(partition) }

    /// Keeps what changed (its outputs were delivered).
    mutating func commit() {
        for partition in touchedRecords { records[partition]?.commit() }
        for partition in touchedAssets { assets[partition]?.commit() }
        touchedRecords = []
        touchedAssets = []
        deletingLegacyKeys = []
    }

    /// Puts back the state of the last commit (a batch or tick that was not delivered).
    mutating func rollback() {
        for partition in touchedRecords { records[partition]?.rollback() }
        for partition in touchedAssets { assets[partition]?.rollback() }
        touchedRecords = []
        touchedAssets = []
        legacyKeys.formUnion(deletingLegacyKeys)
        deletingLegacyKeys = []
    }

    /// Whether `key` is an old-form applied-offset key still in the changelog; if so the
    /// current batch deletes it.
    mutating func takeLegacyKey(_ key: String) -> Bool {
        guard legacyKeys.remove(key) != nil else { return false }
        deletingLegacyKeys.insert(key)
        return true
    }

    /// Drops the ledgers of partitions taken away, after putting back uncommitted changes.
    mutating func drop(records recordPartitions: Set<Int32>, assets assetPartitions: Set<Int32>) {
        rollback()
        for partition in recordPartitions { records[partition] = nil }
        for partition in assetPartitions { assets[partition] = nil }
        legacyKeys.subtract(Self.legacyKeys(records: recordPartitions, assets: assetPartitions))
    }

    /// Replaces the old-form keys of the partitions restored with those their changelog holds.
    mutating func restoreLegacyKeys(_ found: Set<String>, records recordPartitions: Set<Int32>, assets assetPartitions: Set<Int32>) {
        let restored = Self.legacyKeys(records: recordPartitions, assets: assetPartitions)
        legacyKeys.subtract(restored)
        legacyKeys.formUnion(found.intersection(restored))
    }

    /// The old-form keys the partitions' inputs may have.
    private static func legacyKeys(records recordPartitions: Set<Int32>, assets assetPartitions: Set<Int32>) -> Set<String> {
        Set(recordPartitions.map { LegacyAppliedOffset.Input.recordChanges.key($0) })
            .union(assetPartitions.map { LegacyAppliedOffset.Input.assetReferences.key($0) })
    }

    /// The stats over every owned checksum partition.
    var stats: AssetStats {
        assets.values.reduce(into: AssetStats()) { $0.merge($1.stats) }
    }
}
