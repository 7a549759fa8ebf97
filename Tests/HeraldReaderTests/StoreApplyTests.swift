import GRDB
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Applying batches")
struct StoreApplyTests {
    typealias F = ReaderFixtures

    @Test("the same notification twice in one batch and across batches is stored once, without error")
    func duplicates() async throws {
        let store = try F.memoryStore()
        let first = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0), F.notification("_u1", 0), F.notification("_u1", 1)]))
        #expect(first.insertedCount == 2)
        #expect(first.duplicateCount == 1)
        #expect(first.grownStreams == [StreamID(recipient: "_u1", container: F.container): 1])
        let replay = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 1), F.notification("_u1", 0)]))
        #expect(replay.insertedCount == 0)
        #expect(replay.duplicateCount == 2)
        #expect(replay.grownStreams.isEmpty)
        #expect(try await store.stats().notifications == 2)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [0, 1])
    }

    @Test("a replayed ID with a different sequence is still a duplicate; a new ID on a taken sequence is a conflict")
    func conflicts() async throws {
        let store = try F.memoryStore()
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 3, id: "a")]))
        let changes = try await store.apply(StoreBatch(notifications: [
            F.notification("_u1", 9, id: "a"), F.notification("_u1", 3, id: "b"),
        ]))
        #expect(changes.duplicateCount == 1)
        #expect(changes.sequenceConflicts.map(\.notificationID) == ["b"])
        #expect(changes.insertedCount == 0)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.notificationID) == ["a"])
    }

    @Test("fetched notifications are the applied ones, field for field")
    func fidelity() async throws {
        let store = try F.memoryStore()
        let notification = F.notification("_u1", 5)
        _ = try await store.apply(StoreBatch(notifications: [notification]))
        #expect(try await F.fetchAll(store, "_u1").notifications == [notification])
    }

    @Test("offsets are saved with the rows, the highest per partition wins and they never go backwards")
    func offsets() async throws {
        let store = try F.memoryStore()
        #expect(try await store.offsets().isEmpty)
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)], offsets: [
            ConsumedOffset(topic: "herald.notifications", partition: 1, nextOffset: 10),
            ConsumedOffset(topic: "herald.notifications", partition: 1, nextOffset: 12),
            ConsumedOffset(topic: "herald.notifications", partition: 1, nextOffset: 11),
            ConsumedOffset(topic: "herald.notification-reads", partition: 0, nextOffset: 3),
        ]))
        _ = try await store.apply(StoreBatch(offsets: [
            ConsumedOffset(topic: "herald.notifications", partition: 1, nextOffset: 5),
            ConsumedOffset(topic: "herald.notifications", partition: 0, nextOffset: 0),
            ConsumedOffset(topic: "herald.notification-reads", partition: 0, nextOffset: 4),
        ]))
        #expect(try await store.offsets() == [
            ConsumedOffset(topic: "herald.notification-reads", partition: 0, nextOffset: 4),
            ConsumedOffset(topic: "herald.notifications", partition: 0, nextOffset: 0),
            ConsumedOffset(topic: "herald.notifications", partition: 1, nextOffset: 12),
        ])
    }

    @Test("a negative offset is refused before anything is written")
    func negativeOffset() async throws {
        let store = try F.memoryStore()
        let error = await F.asyncReaderError {
            try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)], offsets: [ConsumedOffset(topic: "t", partition: 0, nextOffset: -1)]))
        }
        #expect(error?.serverErrorCode == "BAD_REQUEST")
        #expect(try await store.stats().notifications == 0)
    }

    @Test("when saving an offset fails, the batch's rows are rolled back with it")
    func atomic() async throws {
        let store = try F.memoryStore()
        try await store.database.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER refuseOffsets BEFORE INSERT ON consumedOffset
                BEGIN SELECT RAISE(ABORT, 'offset table unavailable'); END
                """)
        }
        let error = await F.asyncReaderError {
            try await store.apply(StoreBatch(
                notifications: [F.notification("_u1", 0)], reads: [F.read("_u1", ["x"])],
                offsets: [ConsumedOffset(topic: "t", partition: 0, nextOffset: 1)]))
        }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
        #expect(error?.reason.contains("offset table unavailable") == true)
        #expect(error?.operation == "apply")
        #expect(try await store.stats() == StoreStats(notifications: 0, reads: 0, streams: 0, offsets: 0))
    }

    @Test("streams are per recipient and container")
    func streams() async throws {
        let store = try F.memoryStore()
        let changes = try await store.apply(StoreBatch(notifications: [
            F.notification("_u1", 0), F.notification("_u2", 1), F.notification("_u1", 2, container: "iCloud.other"),
        ]))
        #expect(changes.grownStreams.count == 3)
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.sequence) == [0])
        #expect(try await F.fetchAll(store, "_u2").notifications.map(\.sequence) == [1])
        #expect(try await F.fetchAll(store, "_u1", container: "iCloud.other").notifications.map(\.sequence) == [2])
        #expect(try await store.latestSequence(recipient: "_u1", container: F.container) == 0)
        #expect(try await store.latestSequence(recipient: "_u3", container: F.container) == nil)
        #expect(try await store.stats() == StoreStats(notifications: 3, reads: 0, streams: 3, offsets: 0))
    }
}
