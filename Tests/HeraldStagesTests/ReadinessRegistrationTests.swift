import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// A service that reports a condition and never says it is ready.
private struct SilentService: Service, ReadinessReporting {
    let readinessConditions: [String]
    func run() async throws {}
}

@Suite("Readiness registration", .timeLimit(.minutes(5)))
struct ReadinessRegistrationTests {
    @Test("conditions registered before start fail readiness until each service says it is ready")
    func registeredBeforeStart() {
        let readiness = Readiness()
        readiness.register([SilentService(readinessConditions: ["stage.match", "users"]), StubPlainService()])
        #expect(!readiness.isReady)
        #expect(readiness.conditions == ["stage.match": false, "users": false])
        readiness.set("stage.match", ready: true)
        #expect(!readiness.isReady)
        readiness.set("users", ready: true)
        #expect(readiness.isReady)
    }

    @Test("a follower's initializer registers nothing; registered, it is not ready until it caught up with its topic")
    func followerReadyOnceCaughtUp() async throws {
        let fixture = try await PipelineFixture()
        let producer = try fixture.producer()
        let users = fixture.catalog.name(TopicCatalog.users)
        _ = try await producer.send((0..<5).map { OutgoingMessage(topic: users, key: "u\($0)", value: Data("{}".utf8)) })
        let readiness = Readiness()
        let context = fixture.context(producer: producer, readiness: readiness)
        let applied = Counted()
        let follower = try CompactedTopicFollower(
            name: "users", consumer: "users", topic: TopicCatalog.users, context: context, onReady: {},
            apply: { _ throws(Rejection.Reason) in applied.add() })
        #expect(readiness.conditions.isEmpty, "the initializer has no side effect")
        readiness.register([follower])
        #expect(!readiness.isReady)
        #expect(readiness.conditions == ["users": false])
        let ready = try await fixture.run([follower]) { try await Wait.until { readiness.isReady } }
        #expect(ready, "ready once caught up")
        #expect(applied.value == 5)
        await producer.close()
    }
}

/// How many records a follower applied.
private final class Counted: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A service without readiness conditions.
private struct StubPlainService: Service {
    func run() async throws {}
}
