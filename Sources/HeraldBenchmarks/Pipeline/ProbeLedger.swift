/// The probe changes of a paced run: when each was produced, for which probe user, and
/// the latencies of those already fetched.
actor ProbeLedger {
    private var pending: [Int: [String: ContinuousClock.Instant]] = [:]
    private(set) var latencies: [Duration] = []
    /// Set when no more probes will be produced.
    private(set) var isClosed = false

    /// Probe `recordName` for probe user `user` was produced at `instant`.
    func produced(_ recordName: String, user: Int, at instant: ContinuousClock.Instant) {
        pending[user, default: [:]][recordName] = instant
    }

    /// `recordNames` came back in a fetch of `user`'s notifications at `instant`; names
    /// that are not pending probes (or came back before) are ignored.
    func fetched(_ recordNames: [String], user: Int, at instant: ContinuousClock.Instant) {
        for name in recordNames {
            if let sent = pending[user]?.removeValue(forKey: name) { latencies.append(sent.duration(to: instant)) }
        }
    }

    /// When the oldest of `user`'s pending probes was produced; nil when none is pending.
    func oldestPending(user: Int) -> ContinuousClock.Instant? { pending[user]?.values.min() }

    /// How many probes are still pending.
    var pendingCount: Int { pending.values.reduce(0) { $0 + $1.count } }

    /// No more probes will be produced.
    func close() { isClosed = true }
}
