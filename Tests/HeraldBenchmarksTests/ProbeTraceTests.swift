import Foundation
import Testing

@testable import HeraldBenchmarks

@Suite("Probe trace of the paced pipeline run")
struct ProbeTraceTests {
    @Test func findsTheProbesRecordNameInJSONAndInBinary() {
        let names: Set = ["item-20017", "item-20021"]
        #expect(ProbeTrace.recordName(in: Data(#"{"recordName":"item-20017","x":1}"#.utf8), among: names) == "item-20017")
        // A compact form may follow the name with a length byte that reads as a digit.
        var binary = Data([0x03, 0x0a]) + Data("item-20021".utf8)
        binary.append(UInt8(ascii: "7"))
        #expect(ProbeTrace.recordName(in: binary, among: names) == "item-20021")
        #expect(ProbeTrace.recordName(in: Data("item-2001 item-".utf8), among: names) == nil)
        #expect(ProbeTrace.recordName(in: Data(), among: names) == nil)
    }

    @Test func pacedReportGivesEachHopInJSONAndTable() throws {
        var paced = PipelineReport.Paced(
            rate: 500, achievedRate: 498, seconds: 10, changes: 4_980,
            latency: try #require(LatencySummary((1...100).map { Duration.milliseconds($0) })))
        paced.hops = [try #require(PipelineReport.Hop(name: "match", milliseconds: [2, 4, 6]))]
        #expect(PipelineReport.Hop(name: "reader", milliseconds: []) == nil)
        let report = PipelineReport(
            changes: 100, subscriptions: 10, partitions: 2, herald: BenchmarkReportTests.path(1_000), sameTopology: nil,
            oneHop: BenchmarkReportTests.path(4_000), paced: paced)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let hops = try #require(json["paced_hops"] as? [String: [String: Double]])
        #expect(hops["match"]?["mean_ms"] == 4)
        #expect(hops["match"]?["p50_ms"] == 4)
        #expect(hops["match"]?["max_ms"] == 6)
        #expect(report.table.contains("match"))
    }
}
