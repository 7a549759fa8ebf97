import Foundation

/// What `herald bench push` measured. Stage level (issue 15's measurement): pushes per
/// second from the first notification produced to `notifications` to the stand-in's last
/// acknowledgement, and latency from each notification's produce to the acknowledgement of
/// its push, paced at half that rate. Client level: pushes per second through `APNsClient`
/// and through the baseline (ready-made requests over the same HTTP/2 client), and latency
/// at half the client's rate.
/// Targets (issue 15), on the stage-level numbers: ≥ 20 000 pushes/s, p99 ≤ 50 ms at half that rate.
public struct PushReport: BenchmarkReport {
    public var pushes: Int
    public var concurrency: Int
    public var connections: Int
    /// Client level, closed loops: rates and latencies at full load.
    public var clientPushesPerSecond: Double
    public var baselinePerSecond: Double
    public var clientRatio: Double
    public var clientLoadedP50Milliseconds: Double?
    public var clientLoadedP99Milliseconds: Double?
    public var baselineP99Milliseconds: Double?
    /// Client level, paced at half the client's rate: the rate reached and latencies from each push's planned start.
    public var clientPacedPerSecond: Double
    public var clientP50Milliseconds: Double?
    public var clientP99Milliseconds: Double?
    /// Stage level (nil when it did not run): its sizes, …
    public var notifications: Int?
    public var users: Int?
    public var devicesPerUser: Int?
    public var partitions: Int32?
    /// The push stage's notifications per batch and pushes in flight.
    public var stageBatchSize: Int?
    public var stageConcurrency: Int?
    public var stageWorkers: Int?
    /// … the maximum-rate phase: acknowledged pushes per second, over the baseline's rate,
    /// latencies at that load, CPU per push (this process: stage, broker, stand-in), …
    public var pushesPerSecond: Double?
    public var ratio: Double?
    public var loadedP50Milliseconds: Double?
    public var loadedP99Milliseconds: Double?
    public var cpuMicrosecondsPerPush: Double?
    /// … and the paced phase: the rate aimed at and reached (pushes/s), latencies from
    /// each notification's produce to the stand-in's answer to its push.
    public var pacedTargetPerSecond: Double?
    public var pacedPerSecond: Double?
    public var p50Milliseconds: Double?
    public var p99Milliseconds: Double?
    public var maxMilliseconds: Double?
    /// Pushes answered more than once per device (the stage sent a notification twice), and refused by the stand-in.
    public var repeatedPushes: Int?
    public var refusedPushes: Int?
    /// Client-level pushes that failed.
    public var failures: Int
    /// Whether the targets were met by the stage-level numbers (false when it did not run).
    public var rateTargetMet: Bool
    public var latencyTargetMet: Bool

    /// The targets.
    public static let targetPerSecond = 20_000.0
    public static let targetP99Milliseconds = 50.0

    enum CodingKeys: String, CodingKey {
        case pushes, concurrency, connections
        case clientPushesPerSecond = "client_pushes_per_s", baselinePerSecond = "baseline_per_s", clientRatio = "client_ratio"
        case clientLoadedP50Milliseconds = "client_loaded_p50_ms", clientLoadedP99Milliseconds = "client_loaded_p99_ms"
        case baselineP99Milliseconds = "baseline_p99_ms"
        case clientPacedPerSecond = "client_paced_per_s", clientP50Milliseconds = "client_p50_ms"
        case clientP99Milliseconds = "client_p99_ms"
        case notifications, users, devicesPerUser = "devices_per_user", partitions
        case stageBatchSize = "stage_batch_size", stageConcurrency = "stage_concurrency", stageWorkers = "stage_workers"
        case pushesPerSecond = "pushes_per_s", ratio
        case loadedP50Milliseconds = "loaded_p50_ms", loadedP99Milliseconds = "loaded_p99_ms"
        case cpuMicrosecondsPerPush = "cpu_us_per_push"
        case pacedTargetPerSecond = "paced_target_per_s", pacedPerSecond = "paced_per_s"
        case p50Milliseconds = "p50_ms", p99Milliseconds = "p99_ms", maxMilliseconds = "max_ms"
        case repeatedPushes = "repeated_pushes", refusedPushes = "refused_pushes", failures
        case rateTargetMet = "rate_target_met", latencyTargetMet = "latency_target_met"
    }

    init(benchmark: PushBenchmark, client: PushLoad.Result, baseline: PushLoad.Result, paced: PushLoad.Result, pacedRate: Double) {
        (pushes, concurrency, connections) = (benchmark.pushes, benchmark.concurrency, benchmark.connections)
        clientPushesPerSecond = client.rate
        baselinePerSecond = baseline.rate
        clientRatio = HeraldBenchmarks.ratio(client.rate, baseline.rate)
        let loaded = LatencySummary(client.latencies)
        clientLoadedP50Milliseconds = loaded?.p50.milliseconds
        clientLoadedP99Milliseconds = loaded?.p99.milliseconds
        baselineP99Milliseconds = LatencySummary(baseline.latencies)?.p99.milliseconds
        clientPacedPerSecond = paced.rate
        let summary = LatencySummary(paced.latencies)
        clientP50Milliseconds = summary?.p50.milliseconds
        clientP99Milliseconds = summary?.p99.milliseconds
        failures = client.failures + baseline.failures + paced.failures
        rateTargetMet = false
        latencyTargetMet = false
    }

    /// Adds the stage-level run's numbers and judges the targets by them.
    mutating func add(_ stage: PushStageRun.Outcome, settings: PushStageRun.Settings) {
        (notifications, users, devicesPerUser, partitions) = (
            settings.notifications, settings.users, settings.devicesPerUser, settings.partitions
        )
        (stageBatchSize, stageConcurrency) = (settings.stage.maxBatchSize, settings.stage.maxConcurrentSends)
        stageWorkers = settings.stage.workers
        let maximum = stage.maximum
        pushesPerSecond = maximum.rate
        ratio = HeraldBenchmarks.ratio(maximum.rate, baselinePerSecond)
        let loaded = LatencySummary(maximum.latencies)
        loadedP50Milliseconds = loaded?.p50.milliseconds
        loadedP99Milliseconds = loaded?.p99.milliseconds
        cpuMicrosecondsPerPush = maximum.acknowledged > 0 ? stage.cpuSeconds * 1e6 / Double(maximum.acknowledged) : nil
        pacedTargetPerSecond = stage.pacedTarget * Double(settings.devicesPerUser)
        pacedPerSecond = stage.paced.rate
        let paced = LatencySummary(stage.paced.latencies)
        p50Milliseconds = paced?.p50.milliseconds
        p99Milliseconds = paced?.p99.milliseconds
        maxMilliseconds = paced?.max.milliseconds
        repeatedPushes = maximum.repeated + stage.paced.repeated
        refusedPushes = maximum.refused + stage.paced.refused
        rateTargetMet = maximum.rate >= Self.targetPerSecond
        latencyTargetMet = (p99Milliseconds ?? .infinity) <= Self.targetP99Milliseconds
    }

    /// Every key present; what was not measured is null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pushes, forKey: .pushes)
        try c.encode(concurrency, forKey: .concurrency)
        try c.encode(connections, forKey: .connections)
        try c.encode(clientPushesPerSecond, forKey: .clientPushesPerSecond)
        try c.encode(baselinePerSecond, forKey: .baselinePerSecond)
        try c.encode(clientRatio, forKey: .clientRatio)
        try c.encode(clientLoadedP50Milliseconds, forKey: .clientLoadedP50Milliseconds)
        try c.encode(clientLoadedP99Milliseconds, forKey: .clientLoadedP99Milliseconds)
        try c.encode(baselineP99Milliseconds, forKey: .baselineP99Milliseconds)
        try c.encode(clientPacedPerSecond, forKey: .clientPacedPerSecond)
        try c.encode(clientP50Milliseconds, forKey: .clientP50Milliseconds)
        try c.encode(clientP99Milliseconds, forKey: .clientP99Milliseconds)
        try c.encode(notifications, forKey: .notifications)
        try c.encode(users, forKey: .users)
        try c.encode(devicesPerUser, forKey: .devicesPerUser)
        try c.encode(partitions, forKey: .partitions)
        try c.encode(stageBatchSize, forKey: .stageBatchSize)
        try c.encode(stageConcurrency, forKey: .stageConcurrency)
        try c.encode(stageWorkers, forKey: .stageWorkers)
        try c.encode(pushesPerSecond, forKey: .pushesPerSecond)
        try c.encode(ratio, forKey: .ratio)
        try c.encode(loadedP50Milliseconds, forKey: .loadedP50Milliseconds)
        try c.encode(loadedP99Milliseconds, forKey: .loadedP99Milliseconds)
        try c.encode(cpuMicrosecondsPerPush, forKey: .cpuMicrosecondsPerPush)
        try c.encode(pacedTargetPerSecond, forKey: .pacedTargetPerSecond)
        try c.encode(pacedPerSecond, forKey: .pacedPerSecond)
        try c.encode(p50Milliseconds, forKey: .p50Milliseconds)
        try c.encode(p99Milliseconds, forKey: .p99Milliseconds)
        try c.encode(maxMilliseconds, forKey: .maxMilliseconds)
        try c.encode(repeatedPushes, forKey: .repeatedPushes)
        try c.encode(refusedPushes, forKey: .refusedPushes)
        try c.encode(failures, forKey: .failures)
        try c.encode(rateTargetMet, forKey: .rateTargetMet)
        try c.encode(latencyTargetMet, forKey: .latencyTargetMet)
    }

    public var table: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%6.2f ms", $0) } ?? "        —" }
        func rate(_ value: Double?) -> String { value.map { String(format: "%9.0f", $0) } ?? "        —" }
        func met(_ value: Bool) -> String { value ? "met" : "NOT met" }
        var lines = """
            APNs pushes to the local stand-in (HTTP/2 + TLS on loopback, same process). Client level: \(pushes) pushes
            per run, \(concurrency) in flight, \(connections) connections.
            """
        if let notifications, let users, let devicesPerUser, let partitions {
            lines += """

                Stage level: \(notifications) notifications on `notifications` (\(partitions) partitions, embedded broker) to
                \(users) users × \(devicesPerUser) device(s), through the push stage (`herald run --stages push`'s wiring,
                \(stageWorkers ?? 1) worker(s), batches of \(stageBatchSize ?? 0), \(stageConcurrency ?? 0) pushes in flight each);
                latency from each notification's produce to the stand-in's answer to its push (matched by apns-id).
                """
        }
        lines += """


            | load                                               | pushes/s  | p50       | p99       | max       |
            |----------------------------------------------------|----------:|----------:|----------:|----------:|
            | ready-made requests, same HTTP/2 (baseline)        | \(rate(baselinePerSecond)) |         — | \(ms(baselineP99Milliseconds)) |         — |
            | APNsClient, closed loop                            | \(rate(clientPushesPerSecond)) | \(ms(clientLoadedP50Milliseconds)) | \(ms(clientLoadedP99Milliseconds)) |         — |
            | APNsClient, paced at half its rate                 | \(rate(clientPacedPerSecond)) | \(ms(clientP50Milliseconds)) | \(ms(clientP99Milliseconds)) |         — |
            """
        if notifications != nil {
            lines += """

                | notification → ack through the push stage, max     | \(rate(pushesPerSecond)) | \(ms(loadedP50Milliseconds)) | \(ms(loadedP99Milliseconds)) |         — |
                | notification → ack, paced at half of that          | \(rate(pacedPerSecond)) | \(ms(p50Milliseconds)) | \(ms(p99Milliseconds)) | \(ms(maxMilliseconds)) |
                stage: \(String(format: "%.0f", cpuMicrosecondsPerPush ?? 0)) µs CPU per push (this process: stage, broker, stand-in); \
                \(repeatedPushes ?? 0) repeated, \(refusedPushes ?? 0) refused
                """
        }
        lines += """

            client / baseline: \(String(format: "%.2f×", clientRatio)); client failures: \(failures)
            target ≥ \(Int(Self.targetPerSecond)) pushes/s through the stage: \(met(rateTargetMet)); p99 ≤ \(Int(Self.targetP99Milliseconds)) ms at half rate: \(met(latencyTargetMet))
            """
        return lines
    }
}
