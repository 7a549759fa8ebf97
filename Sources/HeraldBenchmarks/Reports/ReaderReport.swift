import Foundation

/// What `herald bench reader` measured: fetches per second and their latency, next to
/// `GET /health/live` on the same server (the baseline).
public struct ReaderReport: BenchmarkReport {
    public var users: Int
    public var notificationsPerUser: Int
    public var connections: Int
    public var threads: Int
    public var seconds: Int
    public var pageSize: Int
    /// Requests per second.
    public var fetch: Double
    public var baseline: Double
    /// fetch / baseline.
    public var fetchRatio: Double
    /// Latencies as wrk printed them, and in milliseconds (nil when wrk printed none).
    public var fetchP50: String
    public var fetchP99: String
    public var baselineP50: String
    public var baselineP99: String
    public var fetchP50Milliseconds: Double?
    public var fetchP99Milliseconds: Double?
    public var baselineP50Milliseconds: Double?
    public var baselineP99Milliseconds: Double?
    /// What wrk counted as errors (non-2xx responses, socket errors), nil when none.
    public var fetchErrors: String?
    public var baselineErrors: String?

    enum CodingKeys: String, CodingKey {
        case users, notificationsPerUser = "notifications_per_user", connections, threads, seconds, pageSize = "page_size"
        case fetch = "fetch_per_s", baseline = "baseline_per_s", fetchRatio = "fetch_ratio"
        case fetchP50Milliseconds = "fetch_p50_ms", fetchP99Milliseconds = "fetch_p99_ms"
        case baselineP50Milliseconds = "baseline_p50_ms", baselineP99Milliseconds = "baseline_p99_ms"
        case fetchErrors = "fetch_errors", baselineErrors = "baseline_errors"
    }

    /// A report of what wrk measured with `benchmark`'s settings.
    init(_ benchmark: ReaderBenchmark, health: ReaderBenchmark.Load, fetch: ReaderBenchmark.Load) {
        (users, notificationsPerUser, connections) = (benchmark.users, benchmark.perUser, benchmark.connections)
        (threads, seconds, pageSize) = (ReaderBenchmark.threads(benchmark.connections), benchmark.seconds, benchmark.pageSize)
        self.fetch = fetch.requestsPerSecond
        baseline = health.requestsPerSecond
        fetchRatio = ratio(fetch.requestsPerSecond, health.requestsPerSecond)
        (fetchP50, fetchP99, baselineP50, baselineP99) = (fetch.p50, fetch.p99, health.p50, health.p99)
        fetchP50Milliseconds = Self.milliseconds(wrk: fetch.p50)
        fetchP99Milliseconds = Self.milliseconds(wrk: fetch.p99)
        baselineP50Milliseconds = Self.milliseconds(wrk: health.p50)
        baselineP99Milliseconds = Self.milliseconds(wrk: health.p99)
        (fetchErrors, baselineErrors) = (fetch.errors, health.errors)
    }

    /// Every key present; what was not measured is null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(users, forKey: .users)
        try container.encode(notificationsPerUser, forKey: .notificationsPerUser)
        try container.encode(connections, forKey: .connections)
        try container.encode(threads, forKey: .threads)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(fetch, forKey: .fetch)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(fetchRatio, forKey: .fetchRatio)
        try container.encode(fetchP50Milliseconds, forKey: .fetchP50Milliseconds)
        try container.encode(fetchP99Milliseconds, forKey: .fetchP99Milliseconds)
        try container.encode(baselineP50Milliseconds, forKey: .baselineP50Milliseconds)
        try container.encode(baselineP99Milliseconds, forKey: .baselineP99Milliseconds)
        try container.encode(fetchErrors, forKey: .fetchErrors)
        try container.encode(baselineErrors, forKey: .baselineErrors)
    }

    /// A latency as wrk prints it (`812.00us`, `12.57ms`, `1.02s`, `2.00m`) in milliseconds;
    /// nil for anything else.
    static func milliseconds(wrk text: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [("us", 0.001), ("ms", 1), ("s", 1000), ("m", 60_000)]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }),
              let value = Double(text.dropLast(unit.suffix.count)), value.isFinite
        else { return nil }
        return value * unit.factor
    }

    public var table: String {
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + fill : fill + text
        }
        func row(_ name: String, _ rate: Double, _ p50: String, _ p99: String, _ errors: String?) -> String {
            "| \(pad(name, 36, left: true)) | \(pad(String(format: "%.0f", rate), 9)) | "
                + "\(pad(p50, 7)) | \(pad(p99, 7)) | \(errors ?? "none") |"
        }
        return """
            Reader API on loopback, wrk -t\(threads) -c\(connections) -d\(seconds)s (a separate process on the same 2 cores),
            \(users) users × \(notificationsPerUser) notifications in SQLite (WAL); each fetch: a random user's bearer token, resultsLimit \(pageSize).

            | request                              | req/s     | p50     | p99     | errors |
            |--------------------------------------|----------:|--------:|--------:|--------|
            \(row("GET /health/live (baseline)", baseline, baselineP50, baselineP99, baselineErrors))
            \(row("POST …/notifications/changes", fetch, fetchP50, fetchP99, fetchErrors))
            fetch / baseline: \(String(format: "%.2f×", fetchRatio))
            """
    }
}

extension ReaderBenchmark {
    /// Serves the filled store and loads it with wrk (`run()`).
    public func report() async throws -> ReaderReport {
        let (health, fetch) = try await run()
        return ReaderReport(self, health: health, fetch: fetch)
    }
}
