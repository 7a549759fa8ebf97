import HeraldScheduler
import HeraldTestSupport
import Testing

@Suite("DeadlineQueue: each user's next deadline, soonest first")
struct DeadlineQueueTests {
    @Test("due users come out soonest first and leave the queue")
    func dueOrder() {
        var queue = DeadlineQueue()
        queue.update("_c", deadline: 30)
        queue.update("_a", deadline: 10)
        queue.update("_b", deadline: 10)
        queue.update("_d", deadline: 40)
        #expect(queue.nextDeadline == 10 && queue.count == 4)
        #expect(queue.due(now: 9).isEmpty)
        #expect(queue.due(now: 30) == ["_a", "_b", "_c"])
        #expect(queue.count == 1 && queue.nextDeadline == 40)
        #expect(queue.deadline(for: "_a") == nil && queue.deadline(for: "_d") == 40)
    }

    @Test("updates and removals supersede earlier deadlines")
    func lazyDeletion() {
        var queue = DeadlineQueue()
        queue.update("_a", deadline: 10)
        queue.update("_a", deadline: 50)
        queue.update("_b", deadline: 20)
        queue.remove("_b")
        #expect(queue.nextDeadline == 50)
        #expect(queue.due(now: 20).isEmpty)
        queue.update("_a", deadline: 10)
        #expect(queue.due(now: 100) == ["_a"])
        #expect(queue.nextDeadline == nil && queue.count == 0)
        queue.update("_a", deadline: nil)
        #expect(queue.count == 0)
    }

    @Test("many updates to the same users keep the answers right")
    func churn() {
        var queue = DeadlineQueue()
        var expected: [String: Int64] = [:]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let user = "_u\(generator.next() % 50)"
            let deadline = generator.next() % 3 == 0 ? nil : Int64(generator.next() % 1_000)
            queue.update(user, deadline: deadline)
            expected[user] = deadline
        }
        #expect(queue.count == expected.count)
        #expect(queue.nextDeadline == expected.values.min())
        let due = queue.due(now: 500)
        #expect(due == expected.filter { $0.value <= 500 }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key))
        #expect(queue.count == expected.filter { $0.value > 500 }.count)
    }
}
