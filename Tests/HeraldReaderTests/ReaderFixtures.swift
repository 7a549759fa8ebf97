import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

/// Builders shared by the reader suites.
enum ReaderFixtures {
    static let container = "iCloud.com.example.notes"
    static let keyHex = String(repeating: "0123456789abcdef", count: 4)

    static func signer() throws(ReaderError) -> ChangeTokenSigner {
        try ChangeTokenSigner(keyString: keyHex)
    }

    static func memoryStore(retention: RetentionPolicy = RetentionPolicy()) throws(ReaderError) -> NotificationStore {
        try NotificationStore.inMemory(tokenSigner: signer(), retention: retention)
    }

    /// `notification(_:_:container:createdAt:id:)` as its topic JSON, as the reader stores it.
    static func encoded(
        _ recipient: String, _ sequence: Int64, container: String = container, createdAt: Int64 = 1_795_300_000_000,
        id: String? = nil
    ) throws -> EncodedNotification {
        try EncodedNotification(
            json: WireCodec().encode(notification(recipient, sequence, container: container, createdAt: createdAt, id: id)))
    }

    /// A database notification of `recipient` at `sequence` with a stable ID.
    static func notification(
        _ recipient: String, _ sequence: Int64, container: String = container, createdAt: Int64 = 1_795_300_000_000,
        id: String? = nil
    ) -> HeraldNotification {
        var n = HeraldNotification(
            notificationID: id ?? "n-\(recipient)-\(container)-\(sequence)", notificationType: .database,
            containerIdentifier: container, recipient: recipient, sequence: sequence, createdAt: createdAt,
            subscriptionID: "all-changes", subscriptionOwnerUserRecordID: recipient)
        n.databaseScope = .private
        n.badge = Int(sequence % 50)
        n.alertBody = "change \(sequence) for \(recipient)"
        n.recordFields = ["title": .string("note \(sequence)"), "priority": .integer(sequence)]
        return n
    }

    static func read(_ recipient: String, _ ids: [String], container: String = container, at readAt: Int64 = 1_795_300_100_000) -> NotificationRead {
        NotificationRead(recipient: recipient, containerIdentifier: container, notificationIDs: ids, readAt: readAt)
    }

    /// Every page from `token` on until `moreComing` is false.
    static func fetchAll(
        _ store: NotificationStore, _ recipient: String, container: String = container, from token: ChangeToken? = nil,
        limit: Int? = nil, includeRead: Bool = true
    ) async throws -> (notifications: [HeraldNotification], token: ChangeToken, pages: Int) {
        var all: [HeraldNotification] = []
        var token = token
        var pages = 0
        while true {
            let page = try await store.fetch(recipient: recipient, container: container, after: token, limit: limit, includeRead: includeRead)
            pages += 1
            all += page.notifications
            token = page.serverChangeToken
            if !page.moreComing { return (all, page.serverChangeToken, pages) }
        }
    }

    /// The `ReaderError` `body` throws, or `nil`.
    static func readerError<T>(_ body: () throws(ReaderError) -> T) -> ReaderError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// The `ReaderError` an async `body` throws, or `nil` (any other error is a test failure).
    static func asyncReaderError<T>(_ body: () async throws -> T) async -> ReaderError? {
        do {
            _ = try await body()
            return nil
        } catch let error as ReaderError {
            return error
        } catch {
            Issue.record("expected a ReaderError, got \(error)")
            return nil
        }
    }
}

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("reader.sqlite").path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
