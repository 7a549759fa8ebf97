/// Row counts of the store, for metrics. Counting scans the tables: call it at scrape
/// intervals, not per request.
public struct StoreStats: Sendable, Hashable {
    /// Notifications retained.
    public var notifications: Int
    /// Read marks kept (including those waiting for their notification).
    public var reads: Int
    /// Streams (recipient, container) ever written.
    public var streams: Int
    /// Partitions with a saved offset.
    public var offsets: Int
}
