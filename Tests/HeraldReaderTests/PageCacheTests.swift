import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Pages kept between writes", .timeLimit(.minutes(5)))
struct PageCacheTests {
    typealias F = ReaderFixtures

    private static let stream = StreamID(recipient: "_u1", container: F.container)
    private static let shape = PageCache.Shape(after: nil, limit: 20, includeRead: true)

    private static func page(_ token: String, bytes: Int = 10) -> EncodedNotificationPage {
        EncodedNotificationPage(
            notifications: [.init(notificationID: "n", sequence: 1, isRead: false, json: Data(repeating: 0x20, count: bytes))],
            serverChangeToken: ChangeToken(rawValue: token), moreComing: false)
    }

    private static func hit(_ cache: PageCache, _ stream: StreamID = stream, _ shape: PageCache.Shape = shape) -> EncodedNotificationPage? {
        if case .hit(let page) = cache.lookup(stream, shape) { return page }
        return nil
    }

    private static func ticket(_ cache: PageCache, _ stream: StreamID = stream, _ shape: PageCache.Shape = shape) throws -> PageCache.Ticket {
        guard case .miss(let ticket) = cache.lookup(stream, shape) else {
            Issue.record("expected a miss")
            throw CancellationError()
        }
        return ticket
    }

    @Test("a page is kept for its stream and shape only, and never when a write forgot its stream after the ticket was taken")
    func ticketsLoseToWrites() throws {
        let cache = PageCache()
        let first = try Self.ticket(cache)
        cache.keep(Self.page("a"), for: first)
        #expect(Self.hit(cache) == Self.page("a"))
        #expect(Self.hit(cache, StreamID(recipient: "_u2", container: F.container)) == nil)
        #expect(Self.hit(cache, Self.stream, PageCache.Shape(after: 3, limit: 20, includeRead: true)) == nil)
        #expect(Self.hit(cache, Self.stream, PageCache.Shape(after: nil, limit: 20, includeRead: false)) == nil)

        let other = StreamID(recipient: "_u2", container: F.container)
        let late = try Self.ticket(cache, Self.stream, PageCache.Shape(after: 1, limit: 20, includeRead: true))
        let unrelated = try Self.ticket(cache, other)
        cache.forget(.streams([Self.stream]))
        #expect(Self.hit(cache) == nil)
        cache.keep(Self.page("stale"), for: late)
        #expect(Self.hit(cache, Self.stream, PageCache.Shape(after: 1, limit: 20, includeRead: true)) == nil)
        // A write to another stream leaves this one's ticket good.
        cache.keep(Self.page("b"), for: unrelated)
        #expect(Self.hit(cache, other) == Self.page("b"))

        // Forgetting everything (and seeing the stream again) never revives an older ticket.
        let beforeAll = try Self.ticket(cache)
        cache.forget(.everything)
        _ = try Self.ticket(cache)
        cache.keep(Self.page("stale"), for: beforeAll)
        #expect(Self.hit(cache) == nil)
        #expect(cache.pageCount == 0)
    }

    @Test("closed, it keeps nothing")
    func closed() throws {
        let cache = PageCache()
        cache.keep(Self.page("a"), for: try Self.ticket(cache))
        cache.close()
        #expect(Self.hit(cache) == nil)
        cache.keep(Self.page("a"), for: try Self.ticket(cache))
        #expect(Self.hit(cache) == nil)
        #expect(cache.pageCount == 0)
    }

    @Test("bounded by pages and by bytes: the streams seen first go, the latest stays")
    func bounded() throws {
        let byPages = PageCache(maximumPages: 8, maximumBytes: 1 << 20)
        let byBytes = PageCache(maximumPages: 1000, maximumBytes: 1000)
        for user in 0..<50 {
            let stream = StreamID(recipient: "_u\(user)", container: F.container)
            for cache in [byPages, byBytes] {
                cache.keep(Self.page("t\(user)", bytes: 100), for: try Self.ticket(cache, stream))
                #expect(Self.hit(cache, stream) == Self.page("t\(user)", bytes: 100))
            }
            #expect(byPages.pageCount <= 8)
            #expect(byBytes.pageCount <= 10)
        }
        #expect(Self.hit(byPages, StreamID(recipient: "_u0", container: F.container)) == nil)
        // A page over half the byte budget is not kept at all.
        let huge = StreamID(recipient: "_huge", container: F.container)
        byBytes.keep(Self.page("h", bytes: 600), for: try Self.ticket(byBytes, huge))
        #expect(Self.hit(byBytes, huge) == nil)
    }

    /// Random writes of every kind and fetches: every fetch of the store (kept pages on)
    /// equals the database's answer for the same request on a twin store fed the same
    /// writes, whose kept pages are forgotten before each fetch.
    @Test("any fetch between random writes equals the database's answer", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func matchesTheDatabase(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let retention = RetentionPolicy(maxCount: 6, maxAge: .seconds(1000))
        let cached = try NotificationStore(
            path: directory.url.appendingPathComponent("cached.sqlite").path, tokenSigner: F.signer(), retention: retention)
        let reference = try NotificationStore(
            path: directory.url.appendingPathComponent("reference.sqlite").path, tokenSigner: F.signer(), retention: retention)
        let users = ["_u0", "_u1", "_u2"]
        var next = Dictionary(uniqueKeysWithValues: users.map { ($0, Int64(0)) })
        var ids: [String: [String]] = [:]
        var tokens: [String: [ChangeToken]] = [:]
        var clock: Int64 = 1_795_300_000_000
        var fetches = 0
        var hits = 0
        for step in 0..<400 {
            clock += Int64.random(in: 0...200_000, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:
                var batch = StoreBatch()
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let user = users.randomElement(using: &random)!
                    let sequence = next[user]!
                    next[user]! += Int64.random(in: 1...2, using: &random)
                    let notification = F.notification(user, sequence, createdAt: clock)
                    ids[user, default: []].append(notification.notificationID)
                    batch.notifications.append(try EncodedNotification(json: WireCodec().encode(notification)))
                    if Int.random(in: 0..<5, using: &random) == 0 { batch.notifications.append(batch.notifications.last!) }
                }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let user = users.randomElement(using: &random)!
                    let known = ids[user, default: []]
                    let id = known.isEmpty || Bool.random(using: &random) ? UUID().uuidString.lowercased() : known.randomElement(using: &random)!
                    batch.reads.append(F.read(user, [id], at: clock))
                }
                let applied = try await cached.apply(batch)
                #expect(try await reference.apply(batch) == applied, "seed \(seed) step \(step)")
            case 35..<40:
                let now = Date(timeIntervalSince1970: Double(clock) / 1000)
                #expect(try await cached.prune(now: now) == (try await reference.prune(now: now)))
            case 40..<43:
                let identity = StoreIdentity(clusterID: Bool.random(using: &random) ? "A" : "B", topics: ["t": 1])
                if Bool.random(using: &random) {
                    try await cached.record(identity)
                    try await reference.record(identity)
                } else {
                    try await cached.rebuild(as: identity)
                    try await reference.rebuild(as: identity)
                }
            default:
                let user = users.randomElement(using: &random)!
                let token = Bool.random(using: &random) ? tokens[user, default: []].randomElement(using: &random) : nil
                let limit = Bool.random(using: &random) ? Int.random(in: 1...8, using: &random) : nil
                let includeRead = Bool.random(using: &random)
                // Twice: the first may read and keep, the second may be answered from memory.
                for _ in 0..<2 {
                    let wasKept = cached.pageCache.pageCount
                    let got = await Self.result {
                        try await cached.fetchEncoded(recipient: user, container: F.container, after: token, limit: limit, includeRead: includeRead)
                    }
                    reference.pageCache.forget(.everything)
                    let expected = await Self.result {
                        try await reference.fetchEncoded(recipient: user, container: F.container, after: token, limit: limit, includeRead: includeRead)
                    }
                    #expect(got == expected, "seed \(seed) step \(step): \(user) after \(token?.rawValue ?? "nil") limit \(limit.map(String.init) ?? "nil") includeRead \(includeRead)")
                    if case .success(let page) = got { tokens[user, default: []].append(page.serverChangeToken) }
                    fetches += 1
                    if cached.pageCache.pageCount == wasKept, case .success = got { hits += 1 }
                }
            }
        }
        // The comparison above means something only if pages were answered from memory.
        #expect(hits > fetches / 5, "seed \(seed): \(hits) of \(fetches) fetches kept nothing new")
        try cached.close()
        try reference.close()
    }

    @Test("a fetch after a write returned sees it, while other fetches of the same stream race to keep pages")
    func fetchAfterWriteSeesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(
            path: directory.databasePath, tokenSigner: F.signer(),
            retention: RetentionPolicy(maxCount: 100_000, maxAge: .seconds(86_400 * 365)))
        let rounds: Int64 = 300
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    while !Task.isCancelled {
                        _ = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil, limit: 400)
                        _ = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil, limit: 400, includeRead: false)
                        await Task.yield()
                    }
                }
            }
            defer { group.cancelAll() }
            for sequence in 0..<rounds {
                _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", sequence)]))
                let all = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil, limit: 400)
                #expect(all.notifications.last?.sequence == sequence)
                let id = F.notification("_u1", sequence).notificationID
                _ = try await store.apply(StoreBatch(reads: [F.read("_u1", [id])]))
                let unread = try await store.fetchEncoded(
                    recipient: "_u1", container: F.container, after: nil, limit: 400, includeRead: false)
                #expect(unread.notifications.isEmpty, "sequence \(sequence): \(unread.notifications.map(\.sequence))")
                #expect(unread.serverChangeToken == all.serverChangeToken)
            }
        }
        try store.close()
    }

    @Test("a closed store answers no fetch from memory")
    func closedStore() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotificationStore(path: directory.databasePath, tokenSigner: F.signer())
        _ = try await store.apply(StoreBatch(notifications: [F.notification("_u1", 0)]))
        _ = try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil)
        #expect(store.pageCache.pageCount == 1)
        try store.close()
        let error = await F.asyncReaderError { try await store.fetchEncoded(recipient: "_u1", container: F.container, after: nil) }
        #expect(error?.serverErrorCode == "INTERNAL_ERROR")
    }

    private static func result(
        _ body: () async throws -> EncodedNotificationPage
    ) async -> Result<EncodedNotificationPage, ReaderError> {
        do {
            return .success(try await body())
        } catch let error as ReaderError {
            return .failure(error)
        } catch {
            Issue.record("expected a ReaderError, got \(error)")
            return .failure(ReaderError(.internalError, "\(error)", operation: "test"))
        }
    }
}
