import Foundation
import Testing

@testable import HeraldBenchmarks

@Suite("Benchmark reports")
struct BenchmarkReportTests {
    /// The report's JSON as a dictionary (one object, nothing else).
    func object(_ report: some BenchmarkReport) throws -> [String: Any] {
        let text = try report.json()
        #expect(!text.contains("\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func path(_ rate: Double, latency: [Duration] = []) -> PipelineReport.Path {
        PipelineReport.Path(
            changesPerSecond: rate, cpuMicrosecondsPerChange: 50, allocationsPerChange: nil, latency: LatencySummary(latency))
    }

    @Test func pipelineReportHasTheIssuesKeysWithNullForWhatWasNotMeasured() throws {
        let report = PipelineReport(
            changes: 100, subscriptions: 10, partitions: 2, herald: Self.path(1_000, latency: [.milliseconds(5)]),
            sameTopology: nil, oneHop: Self.path(4_000), paced: nil)
        let json = try object(report)
        for key in [
            "herald_changes_per_s", "same_topology_changes_per_s", "one_hop_changes_per_s", "paced_rate_per_s",
            "paced_p50_ms", "paced_p99_ms", "herald_cpu_us_per_change", "herald_allocations_per_change",
        ] {
            #expect(json.keys.contains(key), "missing \(key)")
        }
        #expect(json["herald_changes_per_s"] as? Double == 1_000)
        #expect(json["one_hop_ratio"] as? Double == 0.25)
        #expect(json["herald_p50_ms"] as? Double == 5)
        #expect(json["same_topology_changes_per_s"] is NSNull)
        #expect(json["paced_p99_ms"] is NSNull)
        #expect(json["herald_allocations_per_change"] is NSNull)
    }

    @Test func pipelineReportGivesTheSameTopologyRatioAndThePacedLatency() throws {
        let latencies = (1...100).map { Duration.milliseconds($0) }
        let paced = PipelineReport.Paced(
            rate: 500, achievedRate: 498, seconds: 10, changes: 4_980, latency: try #require(LatencySummary(latencies)))
        let report = PipelineReport(
            changes: 100, subscriptions: 10, partitions: 2, herald: Self.path(1_000), sameTopology: Self.path(2_000),
            oneHop: Self.path(4_000), paced: paced)
        let json = try object(report)
        #expect(json["same_topology_ratio"] as? Double == 0.5)
        #expect(json["paced_rate_per_s"] as? Double == 500)
        #expect(json["paced_p50_ms"] as? Double == 51)
        #expect(json["paced_p99_ms"] as? Double == 100)
        #expect(json["paced_probes"] as? Int == 100)
        #expect(json["paced_probe"] as? String == "stream")
        #expect(report.table.contains("Herald / same topology: 0.50×"))
        #expect(report.table.contains("p99 100 ms"))
        #expect(report.table.contains("fetchable over HTTP (GET …/notifications/stream), topics of its own"))
        #expect(json["paced_topics"] as? String == "fresh")
        var polled = report
        polled.paced?.probe = .poll
        polled.paced?.topics = .shared
        #expect(try object(polled)["paced_probe"] as? String == "poll")
        #expect(try object(polled)["paced_topics"] as? String == "shared")
        #expect(polled.table.contains("fetchable over HTTP (POST …/notifications/changes), on the maximum-rate run's topics"))
    }

    @Test func kafkaReportGivesRatiosOfHeraldToRaw() throws {
        typealias Sample = KafkaBenchmark.Sample
        let produce = KafkaBenchmark.Result(
            path: "produce",
            raw: [Sample(rate: 200, cpuSeconds: 0.002, allocations: 1_000), Sample(rate: 100, cpuSeconds: 0.002, allocations: 1_000)],
            herald: [Sample(rate: 180, cpuSeconds: 0.003, allocations: 2_000), Sample(rate: 150, cpuSeconds: 0.003, allocations: 4_000)])
        let consume = KafkaBenchmark.Result(
            path: "consume", raw: [Sample(rate: 100, cpuSeconds: 0.001), Sample(rate: 100, cpuSeconds: 0.001)],
            herald: [Sample(rate: 0, cpuSeconds: 0), Sample(rate: 0, cpuSeconds: 0)])
        let report = KafkaReport(messages: 1_000, size: 200, partitions: 4, produce: produce, consume: consume)
        let json = try object(report)
        #expect(json["produce_ratio"] as? Double == 0.9, "best HeraldKafka round / best raw round")
        #expect(json["produce_round_ratios"] as? [Double] == [0.9, 1.5])
        #expect(json["produce_ratio_median"] as? Double == 1.2)
        #expect(json["produce_raw_cpu_us"] as? Double == 2)
        #expect(json["produce_herald_cpu_us"] as? Double == 3)
        #expect((json["produce_cpu_ratio"] as? Double).map { abs($0 - 2.0 / 3.0) < 1e-9 } == true)
        #expect(json["produce_herald_allocations"] as? Double == 3)
        #expect(json["consume_ratio"] as? Double == 0)
        #expect(json["consume_herald_allocations"] is NSNull, "no allocation counter: null, not 0")
        #expect(report.table.contains("| produce |"))
    }

    @Test func matcherReportHasLoadTimeNullUntilMeasured() throws {
        let row = MatcherBenchmark.Row(
            subscriptions: 1_000, indexed: 10, withMessages: 5, scanned: nil, bytesPerSubscription: 900, matchesPerChange: 2)
        let json = try object(MatcherReport(rows: [row]))
        for key in [
            "load_1m_seconds", "load_1m_cpu_seconds", "whole_load_1m_seconds", "whole_load_1m_cpu_seconds",
            "directory_load_1m_seconds", "directory_load_1m_cpu_seconds", "directory_restart_seconds", "loaded_subscriptions",
            "directory_rss_delta_bytes", "whole_rss_delta_bytes",
        ] {
            #expect(json[key] is NSNull, "\(key)")
        }
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.first?["indexed_per_s"] as? Double == 10)
        #expect(rows.first?["bytes_per_subscription"] as? Double == 900)
    }

    @Test func payloadReportNamesTheTypicalComposeAndEncodeRate() throws {
        func row(_ shape: String, _ rate: Double) -> PayloadBenchmark.Row {
            PayloadBenchmark.Row(
                shape: shape, count: 1, composed: 1, composedAndEncoded: rate, composedAndEncodedPerCPUSecond: rate * 2,
                encodedOnly: 1, payloadBytes: 1,
                notificationBytes: 1, pruned: false)
        }
        let json = try object(PayloadReport(rows: [row("small", 3), row("typical", 7)]))
        #expect(json["typical_compose_encode_per_s"] as? Double == 7)
        #expect(json["typical_compose_encode_per_cpu_s"] as? Double == 14)
        let rows = try #require(json["shapes"] as? [[String: Any]])
        #expect(rows.last?["compose_encode_per_cpu_s"] as? Double == 14)
    }

    @Test(arguments: [
        ("812.00us", 0.812), ("12.57ms", 12.57), ("1.02s", 1_020), ("2.00m", 120_000),
    ])
    func wrkLatenciesReadAsMilliseconds(text: String, milliseconds: Double) {
        #expect(abs((ReaderReport.milliseconds(wrk: text) ?? -1) - milliseconds) < 1e-9)
    }

    @Test func unreadableWrkLatencyIsNil() {
        #expect(ReaderReport.milliseconds(wrk: "?") == nil)
        #expect(ReaderReport.milliseconds(wrk: "fastms") == nil)
    }

    @Test func latencySummaryTakesMedianNinetyNinthAndMaximum() throws {
        let summary = try #require(LatencySummary((1...200).reversed().map { Duration.milliseconds($0) }))
        #expect(summary.p50 == .milliseconds(101))
        #expect(summary.p99 == .milliseconds(199))
        #expect(summary.max == .milliseconds(200))
        #expect(LatencySummary([]) == nil)
    }
}
