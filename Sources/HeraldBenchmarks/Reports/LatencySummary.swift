/// The median, 99th percentile and maximum of a set of latencies.
public struct LatencySummary: Sendable, Hashable {
    public var p50: Duration
    public var p99: Duration
    public var max: Duration
    /// How many latencies were measured.
    public var count: Int

    /// The summary of `latencies`; nil when there are none.
    init?(_ latencies: [Duration]) {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        p50 = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        max = sorted[sorted.count - 1]
        count = sorted.count
    }
}
