import HeraldKafka
import HeraldStages
import Testing

@Suite("Catching up with a topic's end")
struct CatchUpTests {
    private let p0 = TopicPartition("t", 0)
    private let p1 = TopicPartition("t", 1)
    private let p2 = TopicPartition("t", 2)

    private func message(_ partition: TopicPartition, _ offset: Int64) -> ConsumedMessage {
        ConsumedMessage(topicPartition: partition, offset: offset, key: nil, value: nil)
    }

    @Test("empty partitions, and those resumed at their end, are complete from the start")
    func emptyAndResumedPartitions() {
        let catchUp = CatchUp(
            watermarks: [p0: Watermarks(low: 0, high: 0), p1: Watermarks(low: 4, high: 10), p2: Watermarks(low: 7, high: 7)],
            start: [p1: 10])
        #expect(catchUp.isComplete)
    }

    @Test("complete once every partition's message before its end was consumed; later messages are past the end")
    func completeAtTheEnds() {
        var catchUp = CatchUp(
            watermarks: [p0: Watermarks(low: 0, high: 3), p1: Watermarks(low: 2, high: 5)], start: [p1: 4])
        #expect(catchUp.remaining == [p0: 3, p1: 5])
        #expect(catchUp.pending == ["t[0]", "t[1]"])
        catchUp.advance(past: [message(p0, 0), message(p0, 1), message(p1, 4)])
        #expect(catchUp.pending == ["t[0]"])
        #expect(catchUp.precedesEnd(message(p0, 2)))
        #expect(!catchUp.precedesEnd(message(p0, 3)))
        #expect(!catchUp.precedesEnd(message(p1, 4)), "a partition at its end is past it")
        catchUp.advance(past: message(p0, 2))
        #expect(catchUp.isComplete)
    }

    @Test("a partition whose last offsets are never delivered completes when the consumer reports its end there")
    func completeAtAReportedEnd() {
        // p0 ends in a record no consumer gets (a transaction marker at 2, say): 0 and 1 arrive.
        var catchUp = CatchUp(watermarks: [p0: Watermarks(low: 0, high: 3), p1: Watermarks(low: 0, high: 2)])
        catchUp.advance(past: [message(p0, 0), message(p0, 1)])
        #expect(catchUp.pending == ["t[0]", "t[1]"])
        catchUp.reachedEnd(of: p1, at: 1)
        catchUp.reachedEnd(of: p0, at: 2)
        #expect(catchUp.pending == ["t[0]", "t[1]"], "an end reported before the measured one completes nothing")
        catchUp.reachedEnd(of: p0, at: 3)
        #expect(catchUp.pending == ["t[1]"])
        catchUp.reachedEnd(of: p2, at: 9)
        #expect(catchUp.pending == ["t[1]"], "a partition that was never pending is ignored")
        catchUp.reachedEnd(of: p1, at: 4)
        #expect(catchUp.isComplete)
    }

    @Test("a start before the low watermark (records removed by retention) counts from the low watermark")
    func startBeforeLowWatermark() {
        var catchUp = CatchUp(watermarks: [p0: Watermarks(low: 5, high: 8)], start: [p0: 2])
        #expect(catchUp.remaining == [p0: 8])
        catchUp.advance(past: message(p0, 7))
        #expect(catchUp.isComplete)
    }
}
