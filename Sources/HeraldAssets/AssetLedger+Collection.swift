import HeraldModel

extension AssetLedger {
    /// Removes and returns the files no record has referred to for `gracePeriod` or more at
    /// `now`: those with `unreferencedSince + gracePeriod ≤ now`, oldest first. Their entries
    /// are gone (the caller writes tombstones); a later reference starts a new entry.
    ///
    /// Costs O(due · log n), plus stale heap items passed over.
    /// - Parameters:
    ///   - now: milliseconds since 1970.
    ///   - gracePeriod: how long a file waits unreferenced (CloudKit: at least several days).
    public mutating func collectDue(now: Int64, gracePeriod: Duration) -> [AssetCollection] {
        let (cutoff, overflow) = now.subtractingReportingOverflow(gracePeriod.saturatingMilliseconds)
        guard !overflow else { return [] }
        var collected: [AssetCollection] = []
        while let top = deadlines.min, top.unreferencedSince <= cutoff {
            deadlines.removeMin()
            guard let entry = entries[top.fileChecksum], entry.records.isEmpty,
                entry.unreferencedSince == top.unreferencedSince
            else { continue }
            journal.remember(top.fileChecksum, entry)
            entries[top.fileChecksum] = nil
            collected.append(AssetCollection(
                fileChecksum: entry.fileChecksum, size: entry.size, unreferencedSince: top.unreferencedSince))
        }
        return collected
    }

    /// Puts an unreferenced entry on the deadline heap, rebuilding the heap when stale items
    /// (of cancelled or already collected waits) outnumber the entries.
    mutating func scheduleCollection(of entry: AssetLedgerEntry) {
        guard let since = entry.unreferencedSince else { return }
        deadlines.insert(Deadline(unreferencedSince: since, fileChecksum: entry.fileChecksum))
        if deadlines.count > 2 * entries.count + 64 { rebuildDeadlines() }
    }

    /// The heap of every unreferenced entry, without stale items.
    mutating func rebuildDeadlines() {
        deadlines = .init(entries.values.compactMap { entry in
            entry.unreferencedSince.map { Deadline(unreferencedSince: $0, fileChecksum: entry.fileChecksum) }
        })
    }
}

extension Duration {
    /// Whole milliseconds, clamped to `Int64` (negative durations count as zero).
    var saturatingMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .max }
        let (total, carried) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return carried ? .max : total
    }
}
