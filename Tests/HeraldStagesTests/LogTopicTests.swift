import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Logging
import Testing

@Suite("Log topic")
struct LogTopicTests {
    private func line(_ message: String) -> LogLine {
        LogLine(time: 0, level: "info", label: "t", message: message, metadata: [:], source: "s", instance: "i", file: "f", line: 1)
    }

    @Test("a full buffer drops and counts lines instead of blocking")
    func fullBufferDrops() {
        let sink = LogTopicSink(capacity: 3)
        for index in 0..<5 { sink.append(line("m\(index)")) }
        #expect(sink.bufferedCount == 3)
        #expect(sink.droppedCount == 2)
        #expect(sink.take(upTo: 2).map(\.message) == ["m0", "m1"])
        #expect(sink.take(upTo: 10).map(\.message) == ["m2"])
    }

    @Test("the handler records level, message, metadata and source")
    func handlerRecordsStructuredLines() {
        let sink = LogTopicSink()
        var logger = Logger(label: "herald.test") { label in LogTopicHandler(label: label, instance: "node-1", sink: sink) }
        logger[metadataKey: "stage"] = "match"
        logger.debug("filtered out")
        logger.warning("slow batch", metadata: ["partition": "t[3]"])
        let lines = sink.take(upTo: 10)
        #expect(lines.count == 1)
        #expect(lines.first?.level == "warning")
        #expect(lines.first?.message == "slow batch")
        #expect(lines.first?.metadata == ["stage": "match", "partition": "t[3]"])
        #expect(lines.first?.instance == "node-1")
        #expect(lines.first?.label == "herald.test")
    }

    @Test("the shipper sends buffered lines to the logs topic as JSON, keyed by instance")
    func shipperSendsJSONLines() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let sink = LogTopicSink()
        let producer = try fixture.producer()
        let topic = fixture.catalog.name(TopicCatalog.logs)
        let shipper = LogShipper(sink: sink, producer: producer, topic: topic, instance: "node-1")
        for index in 0..<25 { sink.append(line("line \(index)")) }
        await shipper.shipBuffered()
        let shipped = try await fixture.read(topic, count: 25)
        let decoded = try shipped.map { try JSONDecoder().decode(LogLine.self, from: #require($0.value)) }
        #expect(decoded.map(\.message) == (0..<25).map { "line \($0)" })
        #expect(shipped.allSatisfy { $0.keyString == "node-1" })
        await producer.close()
    }
}
