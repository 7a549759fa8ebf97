import Testing
@testable import HeraldKafka

@Suite("Offset reset log lines")
struct OffsetResetReportTests {
    @Test("librdkafka 2.0.2's reset warning is parsed into topic, partition and offset")
    func parsesTheWarning() throws {
        let line = "[thrd:main]: herald.record-changes [3]: offset reset (at offset 1000, broker 1) to cached BEGINNING offset 0: "
            + "fetch failed due to requested offset not available on the broker: Broker: Offset out of range"
        let report = try #require(OffsetResetReport(facility: "OFFSET", level: 4, text: line))
        #expect(report.partition == TopicPartition("herald.record-changes", 3))
        #expect(report.offset == 1000)
    }

    @Test("other lines and debug-level resets are ignored", arguments: [
        ("OFFSET", Int32(7), "[thrd:main]: t [0]: offset reset (at offset INVALID, broker 1) to BEGINNING: no previously committed offset available"),
        ("FETCH", Int32(4), "[thrd:main]: t [0]: offset reset (at offset 5, broker 1) to END"),
        ("OFFSET", Int32(4), "something else entirely"),
    ])
    func ignoresOtherLines(facility: String, level: Int32, text: String) {
        #expect(OffsetResetReport(facility: facility, level: level, text: text) == nil)
    }
}
