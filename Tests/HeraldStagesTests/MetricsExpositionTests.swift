import Foundation
import HeraldApp
import HeraldStages
import Hummingbird
import HummingbirdTesting
import Metrics
import Prometheus
import Testing

@Suite("/metrics: Herald's metrics with help text")
struct MetricsExpositionTests {
    @Test("herald_log_lines_dropped_total appears (0, then counted) with HELP; HTTP and lag metrics are named and helped")
    func droppedLinesAndHelp() async throws {
        let registry = PrometheusCollectorRegistry()
        let factory = HeraldMetricsFactory.make(registry: registry)
        let sink = LogTopicSink(capacity: 1, metrics: factory)
        let router = Router()
        OperationsRoutes.add(to: router, readiness: Readiness(), registry: registry)
        try await Application(router: router).test(.router) { client in
            let before = try await client.execute(uri: "/metrics", method: .get).body
            #expect(String(buffer: before).contains("\nherald_log_lines_dropped_total 0\n"), "\(String(buffer: before))")

            sink.append(Self.line("kept"))
            #expect(!sink.append(Self.line("dropped")))
            Counter(label: "hb.requests", dimensions: [("http.request.method", "GET")], factory: factory).increment()
            Gauge(label: "herald_consumer_lag", dimensions: [("stage", "match"), ("topic", "t"), ("partition", "0")], factory: factory)
                .record(7)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(text.contains("herald_log_lines_dropped_total 1\n"), "\(text)")
            #expect(text.contains(
                "# HELP herald_log_lines_dropped_total Log lines dropped because the buffer to the logs topic was full or could not be shipped.\n# TYPE herald_log_lines_dropped_total counter\n"))
            #expect(text.contains("# HELP herald_http_requests_total "))
            #expect(text.contains(#"herald_http_requests_total{http_request_method="GET"} 1"#), "\(text)")
            #expect(text.contains("# HELP herald_consumer_lag "))
            #expect(text.contains(#"herald_consumer_lag{stage="match",topic="t",partition="0"} 7"#), "\(text)")
        }
    }

    static func line(_ message: String) -> LogLine {
        LogLine(
            time: 0, level: "info", label: "t", message: message, metadata: [:], source: "t", instance: "i", file: "f",
            line: 1)
    }

    @Test("annotate adds HELP before TYPE once, and keeps an existing HELP")
    func annotate() {
        let exposition = "# HELP a given\n# TYPE a counter\na 1\n# TYPE b gauge\nb 2\n# TYPE other gauge\nother 3\n"
        let annotated = MetricHelp.annotate(exposition, texts: ["a": "ignored", "b": "the b"])
        #expect(annotated == "# HELP a given\n# TYPE a counter\na 1\n# HELP b the b\n# TYPE b gauge\nb 2\n# TYPE other gauge\nother 3\n")
    }
}
