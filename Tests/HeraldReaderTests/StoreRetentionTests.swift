import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Retention and expired tokens")
struct StoreRetentionTests {
    typealias F = ReaderFixtures
    static let day: Int64 = 86_400_000

    func expectExpired(_ store: NotificationStore, _ token: ChangeToken, _ comment: Comment? = nil) async {
        let error = await F.asyncReaderError {
            try await store.fetchEncoded(recipient: "_u1", container: F.container, after: token)
        }
        #expect(error?.serverErrorCode == "CHANGE_TOKEN_EXPIRED", comment)
        #expect(error?.reason.contains("changeTokenExpired") == true, comment)
    }

    @Test("the defaults are 1000 notifications and 28 days")
    func defaults() {
        #expect(RetentionPolicy().maxCount == 1000)
        #expect(RetentionPolicy().maxAge == .seconds(28 * 86_400))
        #expect(RetentionPolicy().maxAgeMilliseconds == 28 * Self.day)
    }

    @Test("a bad policy is a configuration error", arguments: [
        RetentionPolicy(maxCount: 0, maxAge: .seconds(1)), RetentionPolicy(maxCount: 1, maxAge: .zero),
    ])
    func badPolicy(policy: RetentionPolicy) {
        let error = F.readerError { () throws(ReaderError) in try F.memoryStore(retention: policy) }
        #expect(error?.serverErrorCode == "INVALID_CONFIGURATION")
    }

    @Test("the count limit keeps the newest notifications and expires tokens before them")
    func byCount() async throws {
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 3, maxAge: .seconds(86_400)))
        _ = try await store.apply(StoreBatch(notifications: (0..<2).map { F.notification("_u1", $0 * 2) }))  // 0, 2
        let start = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 1)
        #expect(start.notifications.map(\.sequence) == [0])
        let changes = try await store.apply(StoreBatch(notifications: (2..<6).map { F.notification("_u1", $0 * 2) }))  // 4…10
        #expect(changes.prunedCount == 3)
        #expect(changes.grownStreams[StreamID(recipient: "_u1", container: F.container)] == 10)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [6, 8, 10])
        await expectExpired(store, start.serverChangeToken)
        // A token at the pruned-through mark (4) still works: nothing after it was lost.
        let atMark = store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: 4)
        #expect(try await F.fetchAll(store, "_u1", from: atMark).notifications.map(\.sequence) == [6, 8, 10])
        await expectExpired(store, store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: -1))
        // Other streams are untouched.
        #expect(try await store.latestSequence(recipient: "_u1", container: F.container) == 10)
    }

    @Test("a stream's latest sequence after each batch: new stream, known stream, after the count limit moved its mark")
    func latestAcrossBatches() async throws {
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 2, maxAge: .seconds(86_400)))
        let stream = StreamID(recipient: "_u1", container: F.container)
        let first = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)]))
        #expect(first.grownStreams[stream] == 0)
        let second = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 1)]))
        #expect(second.grownStreams[stream] == 1)
        #expect(second.prunedCount == 0)
        let third = try await store.apply(StoreBatch(notifications: (2..<5).map { F.notification("_u1", $0) }))
        #expect(third.prunedCount == 3)
        #expect(third.grownStreams[stream] == 4)
        // The mark (2) read at the next batch: an older sequence is a replay, a newer one grows the stream.
        let fourth = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 1), F.notification("_u1", 5)]))
        #expect(fourth.duplicateCount == 1)
        #expect(fourth.grownStreams[stream] == 5)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [4, 5])
    }

    @Test("a replay of a notification removed by retention is not stored again")
    func replayAfterPruning() async throws {
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 2, maxAge: .seconds(86_400)))
        let all = (0..<4).map { F.notification("_u1", $0) }
        _ = try await store.apply(StoreBatch(notifications: all))
        let replay = try await store.apply(StoreBatch(notifications: all))
        #expect(replay.insertedCount == 0)
        #expect(replay.duplicateCount == 4)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [2, 3])
    }

    @Test("pruning by age removes old notifications as a prefix and expires earlier tokens")
    func byAge() async throws {
        let now: Int64 = 1_800_000_000_000
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 100, maxAge: .seconds(86_400)))
        // Sequence 2 is older than 1 (clock skew): removing through 2 must also take 1.
        let ages: [Int64] = [3 * Self.day, Self.day / 2, 2 * Self.day, Self.day / 4, 0]
        let notifications = ages.enumerated().map { F.notification("_u1", Int64($0.offset), createdAt: now - $0.element) }
        _ = try await store.apply(StoreBatch(
            notifications: notifications + [F.notification("_u2", 0, createdAt: now)],
            reads: [F.read("_u1", [notifications[0].notificationID]), F.read("_u1", ["never-arrived"], at: now - 2 * Self.day)]))
        let oldToken = store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: 0)
        let report = try await store.prune(now: Date(timeIntervalSince1970: Double(now) / 1000))
        #expect(report.notificationsRemoved == 3)
        #expect(report.prunedStreams == [StreamID(recipient: "_u1", container: F.container)])
        #expect(report.readsRemoved == 1)
        #expect(try await store.stats().reads == 0)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [3, 4])
        #expect(try await F.fetchAll(store, "_u2").notifications.map(\.sequence) == [0])
        await expectExpired(store, oldToken)
        // A second sweep at the same time removes nothing.
        #expect(try await store.prune(now: Date(timeIntervalSince1970: Double(now) / 1000)) == PruneReport())
    }

    @Test("when everything is pruned the stream keeps its position")
    func everythingPruned() async throws {
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 10, maxAge: .seconds(60)))
        _ = try await store.apply(StoreBatch(notifications: (0..<3).map { F.notification("_u1", $0, createdAt: 0) }))
        let seen = try await F.fetchAll(store, "_u1").token
        _ = try await store.prune(now: Date(timeIntervalSince1970: 3600))
        let page = try await store.fetch(recipient: "_u1", container: F.container, after: nil)
        #expect(page.notifications.isEmpty)
        #expect(page.serverChangeToken == seen)
        #expect(try await store.fetch(recipient: "_u1", container: F.container, after: seen).notifications.isEmpty)
        #expect(try await store.latestSequence(recipient: "_u1", container: F.container) == 2)
    }
}
