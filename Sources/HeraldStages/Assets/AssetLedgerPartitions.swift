import HeraldAssets

/// The ledgers of the partitions an instance owns — the record side per `record-changes`
/// partition, the checksum side per `asset-refs` partition — and which of them changed
/// since the last commit. Mutated in place under `AssetLedgerStore`'s lock.
struct AssetLedgerPartitions: Sendable {
    var records: [Int32: RecordAssetLedger] = [:]
    var assets: [Int32: AssetLedger] = [:]
    private var touchedRecords: Set<Int32> = []
    private var touchedAssets: Set<Int32> = []

    /// Notes that a partition's ledger may change (so that commit and rollback reach it).
    mutating func touch(records partition: Int32) { touchedRecords.insert(partition) }
    mutating func touch(assets partition: Int32) { touchedAssets.insert(partition) }

    /// Keeps what changed (its outputs were delivered).
    mutating func commit() {
        for partition in touchedRecords { records[partition]?.commit() }
        for partition in touchedAssets { assets[partition]?.commit() }
        touchedRecords = []
        touchedAssets = []
    }

    /// Puts back the state of the last commit (a batch or tick that was not delivered).
    mutating func rollback() {
        for partition in touchedRecords { records[partition]?.rollback() }
        for partition in touchedAssets { assets[partition]?.rollback() }
        touchedRecords = []
        touchedAssets = []
    }

    /// Drops the ledgers of partitions taken away, after putting back uncommitted changes.
    mutating func drop(records recordPartitions: Set<Int32>, assets assetPartitions: Set<Int32>) {
        rollback()
        for partition in recordPartitions { records[partition] = nil }
        for partition in assetPartitions { assets[partition] = nil }
    }

    /// The stats over every owned checksum partition.
    var stats: AssetStats {
        assets.values.reduce(into: AssetStats()) { $0.merge($1.stats) }
    }
}
