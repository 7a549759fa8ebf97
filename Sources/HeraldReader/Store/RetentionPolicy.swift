/// How much of each stream (recipient, container) the store keeps. Older notifications
/// are removed oldest sequence first; a change token from before the removed range then
/// gets `changeTokenExpired`.
public struct RetentionPolicy: Sendable, Hashable {
    /// The most notifications kept per stream; enforced on every apply. Default 1000.
    public var maxCount: Int
    /// The oldest a notification may get (by `createdAt`); enforced by
    /// `NotificationStore.prune(now:)`. Default 28 days (CloudKit's notification lifetime).
    public var maxAge: Duration

    /// The defaults: 1000 notifications, 28 days.
    public init() {
        self.init(maxCount: 1000, maxAge: .seconds(28 * 24 * 60 * 60))
    }

    /// A policy; `maxCount` must be at least 1 and `maxAge` positive (checked when the
    /// store opens).
    public init(maxCount: Int, maxAge: Duration) {
        self.maxCount = maxCount
        self.maxAge = maxAge
    }

    /// `maxAge` in milliseconds, the unit of `createdAt`.
    var maxAgeMilliseconds: Int64 {
        let (seconds, attoseconds) = maxAge.components
        return seconds.multipliedReportingOverflow(by: 1000).overflow
            ? Int64.max : seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    func validate() throws(ReaderError) {
        guard maxCount >= 1 else {
            throw ReaderError(.invalidConfiguration, "retention maxCount must be at least 1, got \(maxCount)", operation: "open")
        }
        guard maxAge > .zero else {
            throw ReaderError(.invalidConfiguration, "retention maxAge must be positive, got \(maxAge)", operation: "open")
        }
    }
}
