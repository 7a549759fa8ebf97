import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Store: notifications kept as their topic JSON, badge counts")
struct StoreEncodedAndBadgeTests {
    typealias F = ReaderFixtures

    @Test("an encoded notification is stored byte for byte, deduplicated by ID, and fetched like a decoded one")
    func encodedNotifications() async throws {
        let store = try F.memoryStore()
        let codec = WireCodec()
        let first = F.notification("_u1", 1), second = F.notification("_u1", 2)
        let bytes = try codec.encode(first)
        var batch = StoreBatch()
        batch.notifications = [try EncodedNotification(json: bytes), try EncodedNotification(json: codec.encode(second))]
        let changes = try await store.apply(batch)
        #expect(changes.insertedCount == 2)
        let again = try await store.apply(StoreBatch(notifications: [first]))
        #expect(again.insertedCount == 0 && again.duplicateCount == 1)
        let page = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil)
        #expect(page.notifications.map(\.json) == [bytes, try codec.encode(second)])
        let decoded = try await store.fetch(recipient: "_u1", container: F.container, after: nil)
        #expect(decoded.notifications == [first, second])
    }

    @Test("JSON that is not a notification is refused with the missing field")
    func badEncodedNotification() {
        #expect(throws: ReaderError.self) { try EncodedNotification(json: Data(#"{"notificationID": "x"}"#.utf8)) }
        do {
            _ = try EncodedNotification(json: Data(#"{"notificationID": "", "recipient": "_u1", "containerIdentifier": "c", "sequence": 1, "createdAt": 0}"#.utf8))
            Issue.record("an empty ID must be refused")
        } catch {
            #expect(error.serverErrorCode == "BAD_REQUEST")
        }
    }

    @Test("badge counts: 0 when unknown, the last of a batch wins, per container, kept across batches")
    func badges() async throws {
        let store = try F.memoryStore()
        #expect(try await store.badge(recipient: "_u1", container: F.container) == 0)
        _ = try await store.apply(StoreBatch(badges: [
            BadgeCount(recipient: "_u1", containerIdentifier: F.container, badge: 3),
            BadgeCount(recipient: "_u1", containerIdentifier: F.container, badge: 4),
            BadgeCount(recipient: "_u1", containerIdentifier: "iCloud.other", badge: 9),
        ]))
        #expect(try await store.badge(recipient: "_u1", container: F.container) == 4)
        #expect(try await store.badge(recipient: "_u1", container: "iCloud.other") == 9)
        #expect(try await store.badge(recipient: "_u2", container: F.container) == 0)
        _ = try await store.apply(StoreBatch(badges: [BadgeCount(recipient: "_u1", containerIdentifier: F.container, badge: 0)]))
        #expect(try await store.badge(recipient: "_u1", container: F.container) == 0)
    }
}
