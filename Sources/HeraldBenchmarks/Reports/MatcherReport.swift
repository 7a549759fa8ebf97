import Foundation
import Logging

/// What `herald bench matcher` measured: one row per subscription count.
public struct MatcherReport: BenchmarkReport {
    public var rows: [MatcherBenchmark.Row]
    /// Seconds for the match stage's loader (`PlacedSubscriptionLoader`, one instance holding
    /// every partition) to read one million subscriptions from the `subscriptions` topic on
    /// the embedded broker and be ready; `nil` (JSON null) when not measured
    /// (`--load-subscriptions 0`).
    public var loadMillionSeconds: Double?
    /// CPU seconds of the process (all threads, the embedded broker included) meanwhile.
    public var loadMillionCPUSeconds: Double?
    /// The same for the whole table in memory (`SubscriptionTableLoader`, as the API read the
    /// topic before its directory in SQLite).
    public var wholeLoadMillionSeconds: Double?
    public var wholeLoadMillionCPUSeconds: Double?
    /// The same for the API's directory in SQLite (`SubscriptionDirectoryLoader`, from an empty file).
    public var directoryLoadMillionSeconds: Double?
    public var directoryLoadMillionCPUSeconds: Double?
    /// Seconds for a second directory loader on the same file to be ready (a restart: it
    /// resumes from the saved offsets), not scaled.
    public var directoryRestartSeconds: Double?
    /// How many subscriptions were loaded (`--load-subscriptions`), and the resident memory
    /// each load added (after less before, not scaled): the directory's and the whole table's.
    public var loadedSubscriptions: Int?
    public var directoryResidentBytes: Int?
    public var wholeResidentBytes: Int?

    enum CodingKeys: String, CodingKey {
        case rows, loadMillionSeconds = "load_1m_seconds", loadMillionCPUSeconds = "load_1m_cpu_seconds"
        case wholeLoadMillionSeconds = "whole_load_1m_seconds", wholeLoadMillionCPUSeconds = "whole_load_1m_cpu_seconds"
        case directoryLoadMillionSeconds = "directory_load_1m_seconds", directoryLoadMillionCPUSeconds = "directory_load_1m_cpu_seconds"
        case directoryRestartSeconds = "directory_restart_seconds", loadedSubscriptions = "loaded_subscriptions"
        case directoryResidentBytes = "directory_rss_delta_bytes", wholeResidentBytes = "whole_rss_delta_bytes"
    }

    /// A report of `rows`.
    public init(rows: [MatcherBenchmark.Row], loadMillionSeconds: Double? = nil) {
        self.rows = rows
        self.loadMillionSeconds = loadMillionSeconds
    }

    /// Every key present; the load times are null when not measured.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(loadMillionSeconds, forKey: .loadMillionSeconds)
        try container.encode(loadMillionCPUSeconds, forKey: .loadMillionCPUSeconds)
        try container.encode(wholeLoadMillionSeconds, forKey: .wholeLoadMillionSeconds)
        try container.encode(wholeLoadMillionCPUSeconds, forKey: .wholeLoadMillionCPUSeconds)
        try container.encode(directoryLoadMillionSeconds, forKey: .directoryLoadMillionSeconds)
        try container.encode(directoryLoadMillionCPUSeconds, forKey: .directoryLoadMillionCPUSeconds)
        try container.encode(directoryRestartSeconds, forKey: .directoryRestartSeconds)
        try container.encode(loadedSubscriptions, forKey: .loadedSubscriptions)
        try container.encode(directoryResidentBytes, forKey: .directoryResidentBytes)
        try container.encode(wholeResidentBytes, forKey: .wholeResidentBytes)
    }

    public var table: String {
        var lines = [
            "Matcher, one core, one (container, database, record type) bucket. Mix: equality 40%, IN 20%, range 15%,",
            "BEGINSWITH 10%, tokens 5%, geo radius 5%, beyond-CloudKit shapes (LIKE, ENDSWITH, substring, OR) 5%.",
            "indexed = decide which subscriptions fire (per wall second; per second of the matching thread's CPU time);",
            "+ messages = also build each Match (copies, UUIDv5 ID);",
            "scan = evaluate every subscription of the bucket (the baseline, same run, same changes).",
            "",
            "| subscriptions | indexed (changes/s) | indexed (changes/CPU s) | + messages (changes/s) | scan all (changes/s) | speed-up | cost vs first row | bytes/subscription | fired/change |",
            "|--------------:|--------------------:|------------------------:|-----------------------:|---------------------:|---------:|------------------:|-------------------:|-------------:|",
        ]
        let base = rows.first?.indexed ?? 1
        for row in rows {
            let scan = row.scanned.map { String(format: "%.0f", $0) } ?? "-"
            let speedUp = row.scanned.map { String(format: "%.0f×", ratio(row.indexed, $0)) } ?? "-"
            lines.append(String(
                format: "| %13d | %19.0f | %@ | %22.0f | %@ | %@ | %16.2f× | %18.0f | %12.2f |",
                row.subscriptions, row.indexed, Self.pad(row.indexedPerCPUSecond.map { String(format: "%.0f", $0) } ?? "-", 23), row.withMessages, Self.pad(scan, 20), Self.pad(speedUp, 8),
                ratio(base, row.indexed), row.bytesPerSubscription, row.matchesPerChange))
        }
        if let loadMillionSeconds, let loadMillionCPUSeconds {
            lines += ["", String(
                format: "Loading 1M subscriptions from the topic until the match stage is ready: %.1f s (%.1f CPU s)",
                loadMillionSeconds, loadMillionCPUSeconds)]
        }
        if let wholeLoadMillionSeconds, let wholeLoadMillionCPUSeconds {
            lines.append(String(
                format: "Loading them into the whole table in memory (as the API did before its directory in SQLite): %.1f s (%.1f CPU s)", wholeLoadMillionSeconds,
                wholeLoadMillionCPUSeconds))
        }
        if let directoryLoadMillionSeconds, let directoryLoadMillionCPUSeconds, let directoryRestartSeconds {
            lines.append(String(
                format: "Loading them into the API's directory in SQLite: %.1f s (%.1f CPU s); ready again after a restart in %.2f s",
                directoryLoadMillionSeconds, directoryLoadMillionCPUSeconds, directoryRestartSeconds))
        }
        if let loadedSubscriptions, let directoryResidentBytes, let wholeResidentBytes {
            lines.append(String(
                format: "Resident memory added by loading %d subscriptions: directory %.1f MB, whole table %.1f MB",
                loadedSubscriptions, Double(directoryResidentBytes) / 1e6, Double(wholeResidentBytes) / 1e6))
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension MatcherBenchmark {
    /// Builds an index of each size and measures each (`run(sizes:)`).
    public func report(sizes: [Int]) throws -> MatcherReport { MatcherReport(rows: try run(sizes: sizes)) }

    /// `report(sizes:)`, then the time the match stage's loader takes to load `load`
    /// subscriptions from the embedded broker (`load_1m_seconds` scales it to a million;
    /// 0: not measured).
    public func report(sizes: [Int], load: Int, logger: Logger) async throws -> MatcherReport {
        var report = try report(sizes: sizes)
        if load > 0 {
            let loads = try await SubscriptionLoadBenchmark(count: load, logger: logger).run()
            let scale = 1_000_000 / Double(load)
            report.loadMillionSeconds = loads.placed.seconds * scale
            report.loadMillionCPUSeconds = loads.placed.cpuSeconds * scale
            report.wholeLoadMillionSeconds = loads.whole.seconds * scale
            report.wholeLoadMillionCPUSeconds = loads.whole.cpuSeconds * scale
            report.directoryLoadMillionSeconds = loads.directory.seconds * scale
            report.directoryLoadMillionCPUSeconds = loads.directory.cpuSeconds * scale
            report.directoryRestartSeconds = loads.directoryRestart.seconds
            report.loadedSubscriptions = load
            report.directoryResidentBytes = loads.directory.residentBytes
            report.wholeResidentBytes = loads.whole.residentBytes
        }
        return report
    }
}
