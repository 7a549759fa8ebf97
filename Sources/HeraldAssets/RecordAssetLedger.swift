import HeraldModel

/// The record side of the asset ledger for one partition of `record-changes`: the files
/// each record refers to now. A change becomes the record's new set of files; the
/// difference with the old set becomes reference events. Records that refer to no file
/// keep no state.
///
/// Replays change nothing: a change at or below the partition's last applied offset
/// (`applied`, the `AppliedOffsets` compose and schedule keep too) or below a record's
/// `lastOffset` is skipped, so a stage that reprocesses
/// input after a restart — even the whole partition from the beginning — publishes no
/// event twice.
///
/// Changes since the last `commit()` can be undone with `rollback()` (a batch that was not
/// delivered is redone from the state before it). A value type with no shared state; one
/// owner mutates it.
public struct RecordAssetLedger: Sendable {
    /// The offset of the last change applied, by input partition (`topic#partition`);
    /// empty before the first.
    public private(set) var applied: AppliedOffsets
    private var states: [String: RecordAssets]
    private var journal = Journal<RecordAssets>()

    /// A ledger restored from its changelog: the records' states and the partition's applied offset.
    public init(applied: AppliedOffsets = [:], records: some Sequence<RecordAssets> = []) {
        self.applied = applied
        var states: [String: RecordAssets] = [:]
        for state in records { states[state.record] = state }
        self.states = states
    }

    /// The state of one record (`container/database/zoneOwner/zoneName/recordName`).
    public subscript(record: String) -> RecordAssets? { states[record] }

    /// How many records refer to at least one file.
    public var count: Int { states.count }

    /// Every record's state, sorted by record.
    public var records: [RecordAssets] { states.values.sorted { $0.record < $1.record } }

    /// Whether the change at `position` to `record` was already applied.
    public func isReplay(_ position: InputPosition, record: String) -> Bool {
        if applied.contains(position) { return true }
        if let state = states[record], position.offset <= state.lastOffset { return true }
        return false
    }

    /// Applies the change found at `position` (always of the ledger's partition).
    /// - Returns: the record's new state and its reference events; `nil` when the change
    ///   is a replay or leaves the record's files as they were.
    public mutating func apply(_ change: RecordChange, at position: InputPosition) -> RecordAssetUpdate? {
        let key = change.assetRecordKey
        guard !isReplay(position, record: key) else { return nil }
        journal.remember(applied: applied)
        applied.insert(position)
        let old = states[key]?.assets ?? []
        let new = change.referencedFiles
        let oldChecksums = Set(old.map(\.fileChecksum))
        let newChecksums = Set(new.map(\.fileChecksum))
        let released = old.filter { !newChecksums.contains($0.fileChecksum) }
        let taken = new.filter { !oldChecksums.contains($0.fileChecksum) }
        guard !released.isEmpty || !taken.isEmpty else { return nil }

        let events = (released.map { ($0, false) } + taken.map { ($0, true) })
            .sorted { $0.0.fileChecksum < $1.0.fileChecksum }
            .map { file, referenced in
                AssetReferenceEvent(
                    fileChecksum: file.fileChecksum, size: file.size, record: key, referenced: referenced, at: change.timestamp)
            }
        // A checksum names the data: one kept across the change keeps its first stated size.
        let kept = old.filter { newChecksums.contains($0.fileChecksum) }
        journal.remember(key, states[key])
        let assets = kept + taken
        states[key] = assets.isEmpty ? nil : RecordAssets(record: key, assets: assets, lastOffset: position.offset)
        return RecordAssetUpdate(record: key, state: states[key], events: events)
    }

    /// Keeps what was applied since the last commit (its outputs were delivered).
    public mutating func commit() {
        journal = Journal()
    }

    /// Puts back the state of the last commit.
    public mutating func rollback() {
        for (record, state) in journal.previous { states[record] = state }
        if let saved = journal.applied { applied = saved }
        journal = Journal()
    }
}
