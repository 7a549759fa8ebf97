import Foundation

/// What `herald bench pipeline` measured: Herald's maximum rate next to its two baselines
/// (the same-topology relay and the one-hop pass-through), each with its CPU and
/// allocations per change, and the latency of a paced run.
///
/// JSON keys (one object): `changes`, `subscriptions`, `partitions`; per path (`herald`,
/// `same_topology`, `one_hop`): `<path>_changes_per_s`, `<path>_cpu_us_per_change`,
/// `<path>_allocations_per_change` (null without the allocation counter), and
/// `same_topology_ratio`, `one_hop_ratio` (Herald ÷ path); the maximum-rate latency
/// `herald_p50_ms`, `herald_p99_ms`, `herald_max_ms` (produce → stored row); the paced run's
/// `paced_rate_per_s` (asked), `paced_achieved_per_s`, `paced_seconds`, `paced_changes`,
/// `paced_probes`, `paced_probe` (`stream` or `poll`), `paced_topics` (`fresh` or `shared`), `paced_p50_ms`, `paced_p99_ms`, `paced_max_ms` (produce → fetchable over
/// HTTP), `paced_hops` (per hop of `ProbeTrace`: `mean_ms`, `p50_ms`, `p99_ms`, `max_ms`); `match_bytes`, `notification_bytes` (average sizes of Herald's messages). What
/// was not measured is null.
public struct PipelineReport: BenchmarkReport {
    /// One path's maximum rate and what it cost.
    public struct Path: Sendable {
        public var changesPerSecond: Double
        public var cpuMicrosecondsPerChange: Double
        public var allocationsPerChange: Double?
        /// Produce → row in the store, when measured per change.
        public var latency: LatencySummary?
    }

    /// The paced run: changes at a fixed rate, latency of probe changes until fetchable.
    public struct Paced: Sendable {
        /// The rate asked for, and the rate produced.
        public var rate: Double
        public var achievedRate: Double
        public var seconds: Double
        public var changes: Int
        /// Produce → the probe's notification first returned over HTTP (its event stream, or
        /// `POST …/notifications/changes`: `probe`).
        public var latency: LatencySummary
        /// Where that latency went, hop by hop (`ProbeTrace`); empty when not traced.
        public var hops: [Hop] = []
        /// How the probe users read their notifications (`stream` or `poll`).
        public var probe = PipelineBenchmark.ProbeMode.stream
        /// Whether the paced run had topics of its own or followed the maximum-rate run on its topics.
        public var topics = PipelineBenchmark.PacedTopics.fresh
    }

    /// One hop of the probes' way (`ProbeTrace`): its latencies' summary.
    public struct Hop: Sendable {
        public var name: String
        public var latency: LatencySummary
        /// The mean of the latencies, in milliseconds.
        public var meanMilliseconds: Double

        /// The hop `name` of latencies `milliseconds`; nil when there are none.
        init?(name: String, milliseconds: [Double]) {
            guard let latency = LatencySummary(milliseconds.map { Duration.milliseconds($0) }) else { return nil }
            self.name = name
            self.latency = latency
            meanMilliseconds = milliseconds.reduce(0, +) / Double(milliseconds.count)
        }
    }

    public var changes: Int
    public var subscriptions: Int
    public var partitions: Int32
    public var herald: Path
    public var sameTopology: Path?
    public var oneHop: Path
    public var paced: Paced?
    /// The average size of Herald's `matches` and `notifications` messages (what the
    /// same-topology relay replays), in bytes.
    public var matchBytes: Double?
    public var notificationBytes: Double?

    /// A report of the paths' measurements; message sizes are set apart.
    public init(
        changes: Int, subscriptions: Int, partitions: Int32, herald: Path, sameTopology: Path?, oneHop: Path, paced: Paced?
    ) {
        (self.changes, self.subscriptions, self.partitions) = (changes, subscriptions, partitions)
        (self.herald, self.sameTopology, self.oneHop, self.paced) = (herald, sameTopology, oneHop, paced)
    }

    /// Herald ÷ the same-topology relay (the headline), and ÷ the one-hop pass-through.
    public var sameTopologyRatio: Double? { sameTopology.map { ratio(herald.changesPerSecond, $0.changesPerSecond) } }
    public var oneHopRatio: Double { ratio(herald.changesPerSecond, oneHop.changesPerSecond) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.encode(changes, forKey: "changes")
        try container.encode(subscriptions, forKey: "subscriptions")
        try container.encode(partitions, forKey: "partitions")
        for (name, path) in [("herald", herald), ("same_topology", sameTopology), ("one_hop", oneHop)] {
            try container.encode(path?.changesPerSecond, forKey: ReportKey("\(name)_changes_per_s"))
            try container.encode(path?.cpuMicrosecondsPerChange, forKey: ReportKey("\(name)_cpu_us_per_change"))
            try container.encode(path?.allocationsPerChange, forKey: ReportKey("\(name)_allocations_per_change"))
        }
        try container.encode(sameTopologyRatio, forKey: "same_topology_ratio")
        try container.encode(oneHopRatio, forKey: "one_hop_ratio")
        try container.encode(matchBytes, forKey: "match_bytes")
        try container.encode(notificationBytes, forKey: "notification_bytes")
        try container.encode(herald.latency?.p50.milliseconds, forKey: "herald_p50_ms")
        try container.encode(herald.latency?.p99.milliseconds, forKey: "herald_p99_ms")
        try container.encode(herald.latency?.max.milliseconds, forKey: "herald_max_ms")
        try container.encode(paced?.rate, forKey: "paced_rate_per_s")
        try container.encode(paced?.achievedRate, forKey: "paced_achieved_per_s")
        try container.encode(paced?.seconds, forKey: "paced_seconds")
        try container.encode(paced?.changes, forKey: "paced_changes")
        try container.encode(paced?.latency.count, forKey: "paced_probes")
        try container.encode(paced?.probe.rawValue, forKey: "paced_probe")
        try container.encode(paced?.topics.rawValue, forKey: "paced_topics")
        try container.encode(paced?.latency.p50.milliseconds, forKey: "paced_p50_ms")
        try container.encode(paced?.latency.p99.milliseconds, forKey: "paced_p99_ms")
        try container.encode(paced?.latency.max.milliseconds, forKey: "paced_max_ms")
        let hops = paced?.hops.map { hop in
            (hop.name, ["mean_ms": hop.meanMilliseconds, "p50_ms": hop.latency.p50.milliseconds,
                        "p99_ms": hop.latency.p99.milliseconds, "max_ms": hop.latency.max.milliseconds])
        }
        try container.encode(hops.map { Dictionary($0, uniquingKeysWith: { first, _ in first }) }, forKey: "paced_hops")
    }

    public var table: String {
        func row(_ name: String, _ path: Path?) -> String {
            guard let path else { return "| \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) | not measured |" }
            let allocations = path.allocationsPerChange.map { String(format: "%.0f", $0) } ?? "n/a"
            return String(
                format: "| %@ | %9.0f | %12.2f× | %13.1f | %@ | %@ | %@ |",
                name.padding(toLength: 13, withPad: " ", startingAt: 0), path.changesPerSecond,
                ratio(herald.changesPerSecond, path.changesPerSecond), path.cpuMicrosecondsPerChange,
                Self.pad(allocations, 18), Self.pad(path.latency.map { Self.ms($0.p50) } ?? "-", 11),
                Self.pad(path.latency.map { Self.ms($0.p99) } ?? "-", 11))
        }
        var lines = [
            "Pipeline, one process, embedded broker: \(changes) record changes, \(subscriptions) subscriptions (each change fires one),",
            "\(partitions) partitions. Herald = record-changes → match → compose → reader store rows. same topology = the same",
            "topics and hops (record-changes → matches → notifications → store rows) relaying Herald's own messages, no",
            "matching, composing or localizing. one hop = consume + produce each change once, acknowledged. All in the same run.",
            "CPU = user + system time of the whole process (the embedded broker included) per change; allocations = malloc",
            "calls per change (n/a unless run with LD_PRELOAD=…/libHeraldAllocationCounter.so). Latency = produce → stored row.",
            "",
            "| path          | changes/s | Herald ÷ path | CPU µs/change | allocations/change | p50 latency | p99 latency |",
            "|---------------|----------:|--------------:|--------------:|-------------------:|------------:|------------:|",
            row("Herald", herald), row("same topology", sameTopology), row("one hop", oneHop),
            "",
            "Herald's messages (relayed by same topology): match \(Self.bytes(matchBytes)), notification \(Self.bytes(notificationBytes)) on average;",
            "Herald also writes its compose state changelog and badge counts, which the relay does not.",
            "Herald / same topology: \(sameTopologyRatio.map { String(format: "%.2f×", $0) } ?? "not measured")",
            "Herald / one hop:       \(String(format: "%.2f×", oneHopRatio))",
        ]
        if let paced {
            lines.append(String(
                format: "Paced, produce → fetchable over HTTP (%@), %@: %.0f changes/s asked, %.0f produced, for %.1f s (%d changes);",
                paced.probe == .stream ? "GET …/notifications/stream" : "POST …/notifications/changes",
                paced.topics == .fresh ? "topics of its own" : "on the maximum-rate run's topics",
                paced.rate, paced.achievedRate, paced.seconds, paced.changes))
            lines.append(String(
                format: "%d probes: p50 %@, p99 %@, max %@", paced.latency.count, Self.ms(paced.latency.p50),
                Self.ms(paced.latency.p99), Self.ms(paced.latency.max)))
            if !paced.hops.isEmpty {
                lines.append("Where it went (Kafka timestamps of the probes' messages; see ProbeTrace), per hop: mean / p50 / p99 / max")
                for hop in paced.hops {
                    lines.append(String(
                        format: "  %@ %6.1f / %@ / %@ / %@", hop.name.padding(toLength: 9, withPad: " ", startingAt: 0),
                        hop.meanMilliseconds, Self.ms(hop.latency.p50), Self.ms(hop.latency.p99), Self.ms(hop.latency.max)))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func ms(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds < 10 ? String(format: "%.1f ms", milliseconds) : String(format: "%.0f ms", milliseconds)
    }

    private static func bytes(_ value: Double?) -> String {
        value.map { String(format: "%.0f B", $0) } ?? "not measured"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

/// A JSON key of a report that flattens its parts into one object.
struct ReportKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringLiteral name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
