import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Read notifications")
struct StoreReadTests {
    typealias F = ReaderFixtures

    @Test("a read applied after its notification turns it into a readNotification with only its ID")
    func readAfter() async throws {
        let store = try F.memoryStore()
        let target = F.notification("_u1", 1)
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0), target, F.notification("_u1", 2)]))
        let changes = try await store.apply(StoreBatch(reads: [F.read("_u1", [target.notificationID])]))
        #expect(changes.readCount == 1)
        #expect(changes.readStreams == [StreamID(recipient: "_u1", container: F.container)])
        let fetched = try await F.fetchAll(store, "_u1").notifications
        #expect(fetched.map(\.notificationType) == [.database, .readNotification, .database])
        #expect(fetched[1] == HeraldNotification(
            notificationID: target.notificationID, notificationType: .readNotification,
            containerIdentifier: F.container, recipient: "_u1", sequence: 1, createdAt: target.createdAt))
        #expect(fetched[1].subscriptionID == nil && fetched[1].alertBody == nil && fetched[1].badge == nil)
        #expect(fetched[0] == F.notification("_u1", 0))
        // The readNotification is a valid wire notification.
        let bytes = try WireCodec().encode(fetched[1])
        #expect(try WireCodec().decode(HeraldNotification.self, from: bytes) == fetched[1])
    }

    @Test("a read that arrives before its notification applies once the notification arrives")
    func readBefore() async throws {
        let store = try F.memoryStore()
        let target = F.notification("_u1", 4)
        let early = try await store.apply(StoreBatch(reads: [F.read("_u1", [target.notificationID, target.notificationID])]))
        #expect(early.readCount == 1)
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 3), target]))
        let fetched = try await F.fetchAll(store, "_u1").notifications
        #expect(fetched.map(\.notificationType) == [.database, .readNotification])
        #expect(try await store.stats().reads == 1)
    }

    @Test("a read and its notification in one batch")
    func sameBatch() async throws {
        let store = try F.memoryStore()
        let target = F.notification("_u1", 0)
        _ = try await store.apply(StoreBatch(notifications: [target], reads: [F.read("_u1", [target.notificationID])]))
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.notificationType) == [.readNotification])
    }

    @Test("includeRead false skips read notifications but the token still moves past them")
    func hideRead() async throws {
        let store = try F.memoryStore()
        let all = (0..<6).map { F.notification("_u1", $0) }
        _ = try await store.apply(StoreBatch(notifications: all, reads: [F.read("_u1", [all[1], all[4], all[5]].map(\.notificationID))]))
        let page = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 2, includeRead: false)
        #expect(page.notifications.map(\.sequence) == [0, 2])
        #expect(page.moreComing)
        let rest = try await store.fetch(recipient: "_u1", container: F.container, after: page.serverChangeToken, limit: 2, includeRead: false)
        #expect(rest.notifications.map(\.sequence) == [3])
        #expect(!rest.moreComing)
        // Past the trailing read ones (4, 5): nothing comes back even with read ones included.
        #expect(rest.serverChangeToken == store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: 5))
        let after = try await store.fetch(recipient: "_u1", container: F.container, after: rest.serverChangeToken)
        #expect(after.notifications.isEmpty)
        #expect(try await F.fetchAll(store, "_u1", includeRead: false).notifications.map(\.sequence) == [0, 2, 3])
    }

    @Test("a read by another user or in another container does not mark the notification read")
    func readsAreScoped() async throws {
        let store = try F.memoryStore()
        let target = F.notification("_u1", 0)
        _ = try await store.apply(StoreBatch(
            notifications: [target],
            reads: [F.read("_u2", [target.notificationID]), F.read("_u1", [target.notificationID], container: "iCloud.other")]))
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.notificationType) == [.database])
        // The owner's own read still lands even though another user named the same ID first.
        _ = try await store.apply(StoreBatch(reads: [F.read("_u1", [target.notificationID])]))
        #expect(try await F.fetchAll(store, "_u1").notifications.map(\.notificationType) == [.readNotification])
    }
}
