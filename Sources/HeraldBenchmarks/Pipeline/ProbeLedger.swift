import Foundation

/// The probe changes of a paced run: when each was produced, for which probe user, and
/// the latencies of those already fetched, with the wall-clock times `ProbeTrace` needs to
/// place the probe's Kafka messages (whose timestamps are wall-clock milliseconds).
actor ProbeLedger {
    /// One fetched probe's times, in wall-clock milliseconds since 1970.
    struct Fetched: Sendable {
        var recordName: String
        var producedMs: Double
        /// When the fetch before the one that returned the probe started (the probe was
        /// not fetchable before then; nil: it was returned by the user's first fetch).
        var previousFetchMs: Double?
        /// When the response that returned the probe arrived.
        var fetchedMs: Double
    }

    private var pending: [Int: [String: (instant: ContinuousClock.Instant, wallMs: Double)]] = [:]
    private(set) var latencies: [Duration] = []
    private(set) var fetched: [Fetched] = []
    /// Set when no more probes will be produced.
    private(set) var isClosed = false

    /// Wall-clock milliseconds since 1970, the unit of Kafka's message timestamps.
    static func wallMilliseconds() -> Double { Date().timeIntervalSince1970 * 1000 }

    /// Probe `recordName` for probe user `user` was produced at `instant`.
    func produced(_ recordName: String, user: Int, at instant: ContinuousClock.Instant) {
        pending[user, default: [:]][recordName] = (instant, Self.wallMilliseconds())
    }

    /// `recordNames` came back in a fetch of `user`'s notifications at `instant`, the fetch
    /// before it having started at `previousFetchMs`; names that are not pending probes (or
    /// came back before) are ignored.
    func fetched(_ recordNames: [String], user: Int, at instant: ContinuousClock.Instant, previousFetchMs: Double?) {
        let wallMs = Self.wallMilliseconds()
        for name in recordNames {
            guard let sent = pending[user]?.removeValue(forKey: name) else { continue }
            latencies.append(sent.instant.duration(to: instant))
            fetched.append(Fetched(recordName: name, producedMs: sent.wallMs, previousFetchMs: previousFetchMs, fetchedMs: wallMs))
        }
    }

    /// When the oldest of `user`'s pending probes was produced; nil when none is pending.
    func oldestPending(user: Int) -> ContinuousClock.Instant? { pending[user]?.values.map(\.instant).min() }

    /// How many probes are still pending.
    var pendingCount: Int { pending.values.reduce(0) { $0 + $1.count } }

    /// No more probes will be produced.
    func close() { isClosed = true }
}
