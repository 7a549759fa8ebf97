import HeraldModel

/// What storing each file once saves: bytes stored (one copy per checksum, including files
/// awaiting collection) against bytes referenced (one copy per referring record, what
/// storing per record would cost), with the counts behind them.
///
/// Sums saturate at `Int64.max` rather than overflow.
public struct AssetStats: Sendable, Hashable, Codable {
    /// Stored files: distinct checksums, referenced or awaiting collection.
    public var assets: Int = 0
    /// Σ size over stored files.
    public var storedBytes: Int64 = 0
    /// (record, file) references.
    public var references: Int = 0
    /// Σ size × referring records.
    public var referencedBytes: Int64 = 0
    /// Files no record refers to, waiting out the grace period.
    public var awaitingCollection: Int = 0
    /// Σ size over files awaiting collection.
    public var awaitingCollectionBytes: Int64 = 0

    /// No files.
    public init() {}

    /// The stats of a set of ledger entries (one per checksum).
    public init(_ entries: some Sequence<AssetLedgerEntry>) {
        for entry in entries { add(entry) }
    }

    /// Counts one more stored file.
    public mutating func add(_ entry: AssetLedgerEntry) {
        assets += 1
        storedBytes = Self.sum(storedBytes, entry.size)
        references += entry.records.count
        let (perRecord, overflow) = entry.size.multipliedReportingOverflow(by: Int64(entry.records.count))
        referencedBytes = Self.sum(referencedBytes, overflow ? .max : perRecord)
        if entry.records.isEmpty {
            awaitingCollection += 1
            awaitingCollectionBytes = Self.sum(awaitingCollectionBytes, entry.size)
        }
    }

    /// Adds the stats of another set of files (another partition).
    public mutating func merge(_ other: AssetStats) {
        assets += other.assets
        storedBytes = Self.sum(storedBytes, other.storedBytes)
        references += other.references
        referencedBytes = Self.sum(referencedBytes, other.referencedBytes)
        awaitingCollection += other.awaitingCollection
        awaitingCollectionBytes = Self.sum(awaitingCollectionBytes, other.awaitingCollectionBytes)
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}
