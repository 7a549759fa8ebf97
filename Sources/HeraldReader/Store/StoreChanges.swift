import HeraldModel

/// What applying a `StoreBatch` changed, so the HTTP layer can wake server-sent-event
/// listeners and the consumer can count and dead-letter.
public struct StoreChanges: Sendable, Hashable {
    /// Streams that gained notifications, with their latest sequence after the batch.
    public var grownStreams: [StreamID: Int64] = [:]
    /// Streams that recorded new read marks (whether or not the notifications named
    /// have arrived yet).
    public var readStreams: Set<StreamID> = []
    /// Notifications inserted.
    public var insertedCount = 0
    /// Notifications skipped as replays: the ID is already stored (in this or an earlier
    /// batch), or the sequence is at or below the stream's pruned-through mark.
    public var duplicateCount = 0
    /// Notifications *not* stored because another notification ID already holds the
    /// same (recipient, container, sequence): an upstream bug; dead-letter them.
    public var sequenceConflicts: [HeraldNotification] = []
    /// Read marks recorded (an ID already marked read is not counted again).
    public var readCount = 0
    /// Notifications removed by the count limit while applying.
    public var prunedCount = 0

    /// No changes.
    public init() {}

    /// The streams whose fetches now answer differently: those that grew (and may have
    /// lost notifications to the count limit) and those with new read marks.
    var changedStreams: Set<StreamID> { readStreams.union(grownStreams.keys) }
}
