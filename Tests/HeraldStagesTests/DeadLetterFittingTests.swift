import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Testing

@Suite("Dead letters that fit")
struct DeadLetterFittingTests {
    private func rejection(value: Data?, key: String = "k", headers: [MessageHeader] = []) -> Rejection {
        let message = ConsumedMessage(
            topicPartition: TopicPartition("t.record-changes", 3), offset: 42, key: Data(key.utf8), value: value,
            headers: headers)
        return Rejection(message: message, reason: .tooLarge("too big"))
    }

    @Test("a dead letter that fits is complete: the original bytes, size and digest")
    func completeForm() throws {
        let value = Data("{\"a\":1}".utf8)
        let letter = DeadLetter.message(
            for: rejection(value: value, headers: [MessageHeader("h", "1")]), stage: "match", topic: "dlq", maxBytes: 10_000)
        #expect(letter.value == value)
        #expect(letter.headers.text(DeadLetter.valueHeader) == "complete")
        #expect(letter.headers.text(DeadLetter.originalSizeHeader) == "7")
        #expect(letter.headers.text(DeadLetter.digestHeader)?.count == 64)
        #expect(letter.headers.first == MessageHeader("h", "1"), "original headers first, as they were")
    }

    @Test("a dead letter over the limit keeps headers, key and as much value as fits", arguments: [1_000, 4_096, 60_000])
    func truncatedForm(limit: Int) throws {
        let value = Data(repeating: 0x61, count: 100_000)
        let letter = DeadLetter.message(
            for: rejection(value: value, headers: [MessageHeader("trace", "x")]), stage: "match", topic: "dlq", maxBytes: limit)
        #expect(letter.wireSize <= limit)
        #expect(letter.headers.text(DeadLetter.valueHeader) == "truncated")
        #expect(letter.headers.text(DeadLetter.originalSizeHeader) == "100000")
        #expect(letter.headers.text(DeadLetter.stageHeader) == "match")
        #expect(letter.headers.text("trace") == "x")
        #expect(letter.key == Data("k".utf8))
        let kept = try #require(letter.value)
        #expect(kept.count > limit / 3 && value.starts(with: kept))
    }

    @Test("with no room for any value it is omitted, and huge original headers are left out and said so")
    func omittedForm() {
        let bigHeader = MessageHeader("blob", Data(repeating: 1, count: 5_000))
        let letter = DeadLetter.message(
            for: rejection(value: Data(repeating: 0x61, count: 50_000), headers: [bigHeader]), stage: "s", topic: "dlq",
            maxBytes: 1_200)
        #expect(letter.wireSize <= 1_200)
        #expect(letter.headers.text(DeadLetter.headersHeader) == "omitted")
        #expect(!letter.headers.contains { $0.name == "blob" })
        #expect(["truncated", "omitted"].contains(letter.headers.text(DeadLetter.valueHeader)))
        let minimal = DeadLetter.minimal(letter)
        #expect(minimal.value == nil && minimal.key == nil)
        #expect(minimal.headers.text(DeadLetter.valueHeader) == "omitted")
        #expect(minimal.headers.text(DeadLetter.codeHeader) == "TOO_LARGE")
        #expect(minimal.wireSize < letter.wireSize)
    }

    @Test("a null original stays null and complete")
    func nullValue() {
        let letter = DeadLetter.message(for: rejection(value: nil), stage: "s", topic: "dlq", maxBytes: 10_000)
        #expect(letter.value == nil)
        #expect(letter.headers.text(DeadLetter.originalSizeHeader) == "-1")
        #expect(letter.headers.text(DeadLetter.valueHeader) == "complete")
    }
}
