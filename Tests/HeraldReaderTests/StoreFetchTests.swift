import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Fetching notification changes")
struct StoreFetchTests {
    typealias F = ReaderFixtures

    @Test("paging returns every notification exactly once in sequence order", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func pagingProperty(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: 100_000, maxAge: .seconds(86_400 * 365)))
        var expected: [Int64] = []
        var sequence: Int64 = Int64.random(in: 0...5, using: &random)
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            var batch = StoreBatch()
            for _ in 0..<Int.random(in: 0...150, using: &random) {
                batch.notifications.append(try F.encoded("_u1", sequence))
                if Bool.random(using: &random) { batch.notifications.append(try F.encoded("_u1", sequence)) }
                expected.append(sequence)
                sequence += Int64.random(in: 1...4, using: &random)  // gaps: other containers took those
            }
            _ = try await store.apply(batch)
        }
        let limit = Int.random(in: 1...60, using: &random)
        let result = try await F.fetchAll(store, "_u1", limit: limit)
        #expect(result.notifications.map(\.sequence) == expected, "seed \(seed), limit \(limit)")
        #expect(result.pages == max(1, (expected.count + limit - 1) / limit))
        // Resuming from the final token finds nothing new and keeps the token.
        let again = try await store.fetch(recipient: "_u1", container: F.container, after: result.token, limit: limit)
        #expect(again.notifications.isEmpty && !again.moreComing)
        #expect(again.serverChangeToken == result.token)
    }

    @Test("moreComing is set only when the limit cut the page short")
    func moreComing() async throws {
        let store = try F.memoryStore()
        _ = try await store.apply(StoreBatch(notifications: (0..<6).map { F.notification("_u1", $0) }))
        let first = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 3)
        #expect(first.notifications.map(\.sequence) == [0, 1, 2])
        #expect(first.moreComing)
        let second = try await store.fetch(recipient: "_u1", container: F.container, after: first.serverChangeToken, limit: 3)
        #expect(second.notifications.map(\.sequence) == [3, 4, 5])
        #expect(!second.moreComing)
        let exact = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 6)
        #expect(exact.notifications.count == 6 && !exact.moreComing)
        #expect(exact.serverChangeToken == second.serverChangeToken)
    }

    @Test("the default limit is 200 and larger limits are clamped to 400")
    func limits() async throws {
        let store = try F.memoryStore()
        _ = try await store.apply(StoreBatch(notifications: (0..<450).map { F.notification("_u1", $0) }))
        let byDefault = try await store.fetch(recipient: "_u1", container: F.container, after: nil)
        #expect(byDefault.notifications.count == NotificationStore.defaultResultsLimit)
        #expect(byDefault.notifications.count == 200 && byDefault.moreComing)
        let clamped = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 10_000)
        #expect(clamped.notifications.count == NotificationStore.maximumResultsLimit)
        #expect(clamped.notifications.count == 400 && clamped.moreComing)
    }

    @Test("a results limit of zero or less is a bad request", arguments: [0, -1, Int.min])
    func badLimit(limit: Int) async throws {
        let store = try F.memoryStore()
        let error = await F.asyncReaderError {
            try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil, limit: limit)
        }
        #expect(error?.serverErrorCode == "BAD_REQUEST")
        #expect(error?.reason.contains("resultsLimit") == true)
    }

    @Test("an empty stream gives its start position, and that token later sees what arrives")
    func emptyStream() async throws {
        let store = try F.memoryStore()
        let empty = try await store.fetch(recipient: "_u1", container: F.container, after: nil)
        #expect(empty.notifications.isEmpty && !empty.moreComing)
        #expect(empty.serverChangeToken == store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: -1))
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0), F.notification("_u1", 1)]))
        let next = try await store.fetch(recipient: "_u1", container: F.container, after: empty.serverChangeToken)
        #expect(next.notifications.map(\.sequence) == [0, 1])
        #expect(next.serverChangeToken == store.tokenSigner.token(recipient: "_u1", container: F.container, sequence: 1))
    }

    @Test("a token is strictly after its position; new arrivals appear after it")
    func resume() async throws {
        let store = try F.memoryStore()
        _ = try await store.apply(StoreBatch(notifications: (0..<3).map { F.notification("_u1", $0) }))
        let first = try await F.fetchAll(store, "_u1")
        _ = try await store.apply(StoreBatch(notifications: (3..<5).map { F.notification("_u1", $0) }))
        let second = try await F.fetchAll(store, "_u1", from: first.token)
        #expect(second.notifications.map(\.sequence) == [3, 4])
    }

    @Test("tokens of other users, other containers, or altered ones are refused by fetch")
    func foreignTokens() async throws {
        let store = try F.memoryStore()
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0), F.notification("_u2", 0)]))
        let token = try await store.fetch(recipient: "_u1", container: F.container, after: nil).serverChangeToken
        for (recipient, container) in [("_u2", F.container), ("_u1", "iCloud.other")] {
            let error = await F.asyncReaderError {
                try await store.fetchEncoded(recipient: recipient, container: container, after: token)
            }
            #expect(error?.serverErrorCode == "BAD_REQUEST")
            #expect(error?.reason.hasPrefix("invalid change token") == true)
        }
        var altered = Array(token.rawValue)
        altered[10] = altered[10] == "A" ? "B" : "A"
        let error = await F.asyncReaderError {
            try await store.fetchEncoded(recipient: "_u1", container: F.container, after: ChangeToken(rawValue: String(altered)))
        }
        #expect(error?.serverErrorCode == "BAD_REQUEST")
    }

    @Test("encoded pages hold the same notifications and token, and their body is the encoded page byte for byte")
    func encodedPages() async throws {
        let store = try F.memoryStore()
        let all = (0..<7).map { F.notification("_u1", $0 * 3) }
        _ = try await store.apply(StoreBatch(notifications: all, reads: [F.read("_u1", [all[2].notificationID])]))
        var token: ChangeToken?
        for includeRead in [true, false] {
            repeat {
                let page = try await store.fetch(recipient: "_u1", container: F.container, after: token, limit: 3, includeRead: includeRead)
                let encoded = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: token, limit: 3, includeRead: includeRead)
                #expect(encoded.serverChangeToken == page.serverChangeToken)
                #expect(encoded.moreComing == page.moreComing)
                #expect(encoded.notifications.map(\.sequence) == page.notifications.map(\.sequence))
                #expect(encoded.notifications.map(\.isRead) == page.notifications.map { $0.notificationType == .readNotification })
                #expect(try encoded.notifications.map { try WireCodec().decode(HeraldNotification.self, from: $0.json) } == page.notifications)
                #expect(encoded.jsonBody == (try WireCodec().encode(page)))
                #expect(try WireCodec().decode(NotificationPage.self, from: encoded.jsonBody) == page)
                token = page.moreComing ? page.serverChangeToken : nil
            } while token != nil
        }
        let empty = try await store.fetchEncoded(recipient: "_u9", container: F.container, after: nil)
        #expect(String(decoding: empty.jsonBody, as: UTF8.self)
            == #"{"moreComing":false,"notifications":[],"serverChangeToken":"\#(empty.serverChangeToken.rawValue)"}"#)
    }

    @Test("the async API gives the same pages")
    func asyncAPI() async throws {
        let store = try F.memoryStore()
        let changes = try await store.apply(StoreBatch(notifications: (0..<5).map { F.notification("_u1", $0) }))
        #expect(changes.insertedCount == 5)
        let page = try await store.fetch(recipient: "_u1", container: F.container, after: nil, limit: 2)
        #expect(page.notifications.map(\.sequence) == [0, 1] && page.moreComing)
        #expect(try await store.latestSequence(recipient: "_u1", container: F.container) == 4)
        #expect(try await store.stats().notifications == 5)
        #expect(try await store.offsets().isEmpty)
    }
}
