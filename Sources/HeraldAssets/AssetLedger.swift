import HeapModule
import HeraldModel

/// The checksum side of the asset ledger for one partition of `asset-refs`: for each stored
/// file, the records that refer to it; for a file no record refers to any more, since when.
///
/// References are counted by record, not by event (adding a record twice or removing an
/// absent one changes nothing), and an event at or below the partition's last applied
/// offset (`applied`) or below an entry's `lastOffset` is a replay and is skipped. When the last record lets go of a file
/// it waits for the grace period (`collectDue`); a new reference in the meantime cancels
/// the wait, and a later release starts a new one.
///
/// Due files are found with a min-heap of release times with lazy deletion: a cancelled
/// wait leaves its heap item, which is ignored when it no longer matches the entry. The
/// heap is rebuilt when stale items outnumber entries, so it stays proportional to them.
///
/// Changes since the last `commit()` can be undone with `rollback()`. A value type with no
/// shared state; one owner mutates it.
public struct AssetLedger: Sendable {
    struct Deadline: Comparable, Sendable {
        var unreferencedSince: Int64
        var fileChecksum: String

        static func < (lhs: Deadline, rhs: Deadline) -> Bool {
            (lhs.unreferencedSince, lhs.fileChecksum) < (rhs.unreferencedSince, rhs.fileChecksum)
        }
    }

    /// The offset of the last event applied, by input partition (`topic#partition`); empty
    /// before the first.
    public internal(set) var applied: AppliedOffsets
    var entries: [String: AssetLedgerEntry]
    var deadlines = Heap<Deadline>()
    var journal = Journal<AssetLedgerEntry>()

    /// A ledger restored from its changelog: the entries and the partition's applied offset.
    public init(applied: AppliedOffsets = [:], entries: some Sequence<AssetLedgerEntry> = []) {
        self.applied = applied
        var byChecksum: [String: AssetLedgerEntry] = [:]
        for entry in entries { byChecksum[entry.fileChecksum] = entry }
        self.entries = byChecksum
        rebuildDeadlines()
    }

    /// The entry of one stored file.
    public subscript(fileChecksum: String) -> AssetLedgerEntry? { entries[fileChecksum] }

    /// How many files are stored (referenced or awaiting collection).
    public var count: Int { entries.count }

    /// Every entry, sorted by checksum.
    public var allEntries: [AssetLedgerEntry] { entries.values.sorted { $0.fileChecksum < $1.fileChecksum } }

    /// Stored and referenced bytes of this partition.
    public var stats: AssetStats { AssetStats(entries.values) }

    /// Whether the event at `position` about `fileChecksum` was already applied.
    public func isReplay(_ position: InputPosition, fileChecksum: String) -> Bool {
        if applied.contains(position) { return true }
        if let entry = entries[fileChecksum], position.offset <= entry.lastOffset { return true }
        return false
    }

    /// Applies the reference event found at `position` (always of the ledger's partition).
    /// - Returns: the file's new entry; `nil` when the event is a replay or changes nothing
    ///   (a record already counted, or one letting go of a file the ledger does not hold).
    public mutating func apply(_ event: AssetReferenceEvent, at position: InputPosition) -> AssetLedgerEntry? {
        let checksum = event.fileChecksum
        let offset = position.offset
        guard !isReplay(position, fileChecksum: checksum) else { return nil }
        journal.remember(applied: applied)
        applied.insert(position)
        let before = entries[checksum]
        var entry = before ?? AssetLedgerEntry(
            fileChecksum: checksum, size: event.size, records: [], unreferencedSince: event.at, lastOffset: offset)
        if event.referenced {
            let added = entry.addRecord(event.record)
            guard added || entry.size != event.size else { return nil }
            entry.size = event.size
            entry.unreferencedSince = nil
        } else {
            guard before != nil, entry.removeRecord(event.record) else { return nil }
            if entry.records.isEmpty { entry.unreferencedSince = event.at }
        }
        entry.lastOffset = offset
        journal.remember(checksum, before)
        entries[checksum] = entry
        if !event.referenced { scheduleCollection(of: entry) }
        return entry
    }

    /// Keeps what was applied or collected since the last commit (its outputs were delivered).
    public mutating func commit() {
        journal = Journal()
    }

    /// Puts back the state of the last commit, including files collected since.
    public mutating func rollback() {
        for (checksum, entry) in journal.previous {
            entries[checksum] = entry
            if let entry { scheduleCollection(of: entry) }
        }
        if let saved = journal.applied { applied = saved }
        journal = Journal()
    }
}
