import Foundation
import HeraldKafka
import HeraldModel
import Testing

@testable import HeraldStages

/// The keyed-state machinery of the compose and schedule stages, without Kafka (restore is
/// covered by the stage tests that restart on the embedded broker).
@Suite("Keyed state store")
struct KeyedStateStoreTests {
    struct Counter: KeyedState, Equatable {
        var owner: String
        var count: Int
        var stateKey: String { owner }
    }

    private func store() -> KeyedStateStore<Counter> {
        KeyedStateStore(topic: "t.state", changelog: ChangelogReader { throw CancellationError() })
    }

    @Test("batches' changes wait in order: a later batch sees them, each commit makes the oldest live")
    func stagedUntilCommitted() throws {
        let store = store()
        var first = store.batch()
        first.stage(Counter(owner: "a", count: 1), on: 3)
        #expect(first["a"]?.count == 1)
        store.stage(first)
        #expect(store.count == 0, "nothing is live before its batch is delivered")

        // Pipelined: the next batch is processed before the first is delivered.
        var second = store.batch()
        #expect(second["a"]?.count == 1, "a later batch starts from what the undelivered one changed")
        second.stage(Counter(owner: "a", count: 2), on: 3)
        second.stage(Counter(owner: "b", count: 7), on: 1)
        store.stage(second)

        #expect(store.commit().keys.sorted() == ["a"])
        #expect(store.count == 1 && store.batch()["a"]?.count == 2 && store.batch()["b"]?.count == 7)
        #expect(store.commit().keys.sorted() == ["a", "b"])
        #expect(store.count == 2 && store.partition(of: "b") == 1 && store.batch()["a"]?.count == 2)
        #expect(store.commit().isEmpty, "nothing is left waiting")
    }

    @Test("undoing (revoke) drops what every undelivered batch changed; the live states of other partitions stay")
    func undoDropsWaiting() throws {
        let store = store()
        var delivered = store.batch()
        delivered.stage(Counter(owner: "a", count: 1), on: 0)
        store.stage(delivered)
        store.commit()
        var undelivered = store.batch()
        undelivered.stage(Counter(owner: "a", count: 2), on: 0)
        undelivered.stage(Counter(owner: "c", count: 1), on: 1)
        store.stage(undelivered)

        #expect(store.revoke([TopicPartition("t.in", 1)]).isEmpty)
        #expect(store.batch()["a"]?.count == 1 && store.batch()["c"] == nil)
        #expect(store.commit().isEmpty)
    }

    @Test("changelog records go to the partition of the input that changed the state, in key order")
    func changelogRecords() throws {
        let store = store()
        var batch = store.batch()
        batch.stage(Counter(owner: "z", count: 2), on: 0)
        batch.stage(Counter(owner: "m", count: 1), on: 2)
        let messages = try store.changelogMessages(batch)
        #expect(messages.map { $0.key.map { String(decoding: $0, as: UTF8.self) } } == ["m", "z"])
        let partitions: [Int32?] = messages.map(\.partition)
        #expect(partitions == [2, 0])
        #expect(messages.allSatisfy { $0.topic == "t.state" })
        let first = try #require(messages.first?.value)
        #expect(try WireCodec().decode(Counter.self, from: first) == Counter(owner: "m", count: 1))
    }

    @Test("revoking drops the keys of those partitions and anything staged")
    func revoke() {
        let store = store()
        var batch = store.batch()
        batch.stage(Counter(owner: "a", count: 1), on: 0)
        batch.stage(Counter(owner: "b", count: 1), on: 1)
        store.stage(batch)
        store.commit()
        var pending = store.batch()
        pending.stage(Counter(owner: "c", count: 1), on: 0)
        store.stage(pending)
        #expect(store.revoke([TopicPartition("t.in", 0)]) == ["a"])
        #expect(store.commit().isEmpty)
        #expect(store.count == 1 && store.batch()["b"] != nil)
    }

    @Test("retries pause longer each time, up to the ceiling", arguments: [(1, 200), (2, 400), (3, 800), (7, 10_000), (70, 10_000)])
    func retryPauses(attempt: Int, milliseconds: Int64) {
        #expect(RetryPolicy().pause(after: attempt) == .milliseconds(milliseconds))
    }
}
