import Foundation

/// What `herald bench push` measured: pushes per second through `APNsClient` and through
/// the baseline (ready-made requests over the same HTTP/2 client) against the stand-in,
/// and latency at half the client's rate.
/// Targets (issue 15): ≥ 20 000 pushes/s, p99 ≤ 50 ms at half that rate.
public struct PushReport: BenchmarkReport {
    public var pushes: Int
    public var concurrency: Int
    public var connections: Int
    /// Closed-loop rates.
    public var pushesPerSecond: Double
    public var baselinePerSecond: Double
    public var ratio: Double
    /// Closed-loop latencies (at full load).
    public var loadedP50Milliseconds: Double?
    public var loadedP99Milliseconds: Double?
    public var baselineP99Milliseconds: Double?
    /// The paced run: its rate and latencies from each push's planned start.
    public var pacedPerSecond: Double
    public var p50Milliseconds: Double?
    public var p99Milliseconds: Double?
    public var failures: Int
    /// Whether the targets were met.
    public var rateTargetMet: Bool
    public var latencyTargetMet: Bool

    /// The targets.
    public static let targetPerSecond = 20_000.0
    public static let targetP99Milliseconds = 50.0

    enum CodingKeys: String, CodingKey {
        case pushes, concurrency, connections
        case pushesPerSecond = "pushes_per_s", baselinePerSecond = "baseline_per_s", ratio
        case loadedP50Milliseconds = "loaded_p50_ms", loadedP99Milliseconds = "loaded_p99_ms"
        case baselineP99Milliseconds = "baseline_p99_ms"
        case pacedPerSecond = "paced_per_s", p50Milliseconds = "p50_ms", p99Milliseconds = "p99_ms", failures
        case rateTargetMet = "rate_target_met", latencyTargetMet = "latency_target_met"
    }

    init(benchmark: PushBenchmark, client: PushLoad.Result, baseline: PushLoad.Result, paced: PushLoad.Result, pacedRate: Double) {
        (pushes, concurrency, connections) = (benchmark.pushes, benchmark.concurrency, benchmark.connections)
        pushesPerSecond = client.rate
        baselinePerSecond = baseline.rate
        ratio = HeraldBenchmarks.ratio(client.rate, baseline.rate)
        let loaded = LatencySummary(client.latencies)
        loadedP50Milliseconds = loaded?.p50.milliseconds
        loadedP99Milliseconds = loaded?.p99.milliseconds
        baselineP99Milliseconds = LatencySummary(baseline.latencies)?.p99.milliseconds
        pacedPerSecond = paced.rate
        let summary = LatencySummary(paced.latencies)
        p50Milliseconds = summary?.p50.milliseconds
        p99Milliseconds = summary?.p99.milliseconds
        failures = client.failures + baseline.failures + paced.failures
        rateTargetMet = client.rate >= Self.targetPerSecond
        latencyTargetMet = (p99Milliseconds ?? .infinity) <= Self.targetP99Milliseconds
    }

    /// Every key present; what was not measured is null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pushes, forKey: .pushes)
        try c.encode(concurrency, forKey: .concurrency)
        try c.encode(connections, forKey: .connections)
        try c.encode(pushesPerSecond, forKey: .pushesPerSecond)
        try c.encode(baselinePerSecond, forKey: .baselinePerSecond)
        try c.encode(ratio, forKey: .ratio)
        try c.encode(loadedP50Milliseconds, forKey: .loadedP50Milliseconds)
        try c.encode(loadedP99Milliseconds, forKey: .loadedP99Milliseconds)
        try c.encode(baselineP99Milliseconds, forKey: .baselineP99Milliseconds)
        try c.encode(pacedPerSecond, forKey: .pacedPerSecond)
        try c.encode(p50Milliseconds, forKey: .p50Milliseconds)
        try c.encode(p99Milliseconds, forKey: .p99Milliseconds)
        try c.encode(failures, forKey: .failures)
        try c.encode(rateTargetMet, forKey: .rateTargetMet)
        try c.encode(latencyTargetMet, forKey: .latencyTargetMet)
    }

    public var table: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.2f ms", $0) } ?? "—" }
        func met(_ value: Bool) -> String { value ? "met" : "NOT met" }
        return """
            APNs pushes through APNsClient to the local stand-in (HTTP/2 + TLS on loopback, same process),
            \(pushes) pushes per run, \(concurrency) in flight, \(connections) connections.

            | load                                        | pushes/s  | p50       | p99       |
            |---------------------------------------------|----------:|----------:|----------:|
            | ready-made requests, same HTTP/2 (baseline) | \(String(format: "%9.0f", baselinePerSecond)) |         — | \(ms(baselineP99Milliseconds)) |
            | APNsClient, closed loop                     | \(String(format: "%9.0f", pushesPerSecond)) | \(ms(loadedP50Milliseconds)) | \(ms(loadedP99Milliseconds)) |
            | APNsClient, paced at half its rate          | \(String(format: "%9.0f", pacedPerSecond)) | \(ms(p50Milliseconds)) | \(ms(p99Milliseconds)) |
            client / baseline: \(String(format: "%.2f×", ratio)); failures: \(failures)
            target ≥ \(Int(Self.targetPerSecond)) pushes/s: \(met(rateTargetMet)); p99 ≤ \(Int(Self.targetP99Milliseconds)) ms at half rate: \(met(latencyTargetMet))
            """
    }
}
