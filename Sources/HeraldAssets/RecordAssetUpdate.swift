import HeraldModel

/// What one change did to one record's assets: the record's new state and the reference
/// events to publish (keyed by checksum).
public struct RecordAssetUpdate: Sendable, Hashable {
    /// The record's key (`container/database/zoneOwner/zoneName/recordName`).
    public var record: String
    /// The record's state after the change; `nil` when it refers to no file any more (a tombstone).
    public var state: RecordAssets?
    /// References given up and taken, sorted by checksum, at the change's timestamp.
    public var events: [AssetReferenceEvent]

    public init(record: String, state: RecordAssets?, events: [AssetReferenceEvent]) {
        self.record = record
        self.state = state
        self.events = events
    }
}
