import Synchronization

/// The pages fetches answered, kept per stream until a write changes that stream, so a
/// repeated fetch (the same position, limit and `includeRead`) skips the database, the
/// change token's HMAC and the copies of every notification's JSON (issue 13).
///
/// Exact, never stale: every write through `NotificationStore.writing` forgets the pages
/// of the streams it changed (all of them when it cannot say which, or when it fails)
/// *after* its transaction committed and before it returns, so a fetch that starts after
/// a write has returned never sees a page from before it. A fetch that misses reads on
/// its own snapshot and keeps its page only if no write forgot its stream in between:
/// it takes a `Ticket` (the stream's stamp) before reading, and the page is kept only
/// while that stamp is still the stream's. Stamps come from one counter and are never
/// reused, so a stream forgotten (or evicted) and seen again can never match an older
/// ticket.
///
/// Bounded: at most `maximumPages` pages and `maximumBytes` of notification JSON; past
/// either, the streams seen first are dropped until half of both budgets is free.
final class PageCache: Sendable {
    /// What else besides the stream decides a page.
    struct Shape: Hashable, Sendable {
        /// The position asked from (`nil`: the oldest retained).
        var after: Int64?
        /// The `resultsLimit` after clamping.
        var limit: Int
        var includeRead: Bool
    }

    /// A miss's right to keep the page it is about to read.
    struct Ticket: Sendable {
        fileprivate let stream: StreamID
        fileprivate let shape: Shape
        fileprivate let stamp: UInt64
    }

    /// A lookup's answer: the page, or the ticket for keeping the one the caller reads.
    enum Lookup: Sendable {
        case hit(EncodedNotificationPage)
        case miss(Ticket)
    }

    /// Which streams a write changed.
    enum Change: Sendable {
        case streams(Set<StreamID>)
        case everything
    }

    let maximumPages: Int
    let maximumBytes: Int

    private struct StreamPages {
        var stamp: UInt64
        var pages: [Shape: EncodedNotificationPage] = [:]
        var bytes = 0
    }

    private struct State {
        var lastStamp: UInt64 = 0
        var streams: [StreamID: StreamPages] = [:]
        /// Streams in the order they were first seen (may name streams since forgotten).
        var arrival: [StreamID] = []
        var pageCount = 0
        var byteCount = 0
        /// Set by `close()`: nothing is kept any more, so every fetch reads (and fails).
        var closed = false
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - maximumPages: pages kept at most (default 16,384).
    ///   - maximumBytes: notification JSON kept at most, in bytes (default 64 MB).
    init(maximumPages: Int = 16_384, maximumBytes: Int = 64 << 20) {
        precondition(maximumPages >= 1 && maximumBytes >= 1, "a page cache holds at least one page")
        self.maximumPages = maximumPages
        self.maximumBytes = maximumBytes
    }

    /// The page kept for `shape` of `stream`, or the ticket to keep the one read now.
    func lookup(_ stream: StreamID, _ shape: Shape) -> Lookup {
        state.withLock { state in
            // Stamps start at 1: a ticket of stamp 0 never keeps anything.
            guard !state.closed else { return .miss(Ticket(stream: stream, shape: shape, stamp: 0)) }
            if let known = state.streams[stream] {
                if let page = known.pages[shape] { return .hit(page) }
                return .miss(Ticket(stream: stream, shape: shape, stamp: known.stamp))
            }
            state.lastStamp += 1
            let stamp = state.lastStamp
            state.streams[stream] = StreamPages(stamp: stamp)
            state.arrival.append(stream)
            if isOver(state) { evict(&state) }
            return .miss(Ticket(stream: stream, shape: shape, stamp: stamp))
        }
    }

    /// Keeps `page` if no write changed the ticket's stream since the ticket was taken.
    func keep(_ page: EncodedNotificationPage, for ticket: Ticket) {
        let bytes = Self.bytes(of: page)
        // A page larger than half the budget would only push everything else out.
        guard bytes <= maximumBytes / 2 else { return }
        state.withLock { state in
            guard var known = state.streams[ticket.stream], known.stamp == ticket.stamp,
                known.pages[ticket.shape] == nil
            else { return }
            known.pages[ticket.shape] = page
            known.bytes += bytes
            state.streams[ticket.stream] = known
            state.pageCount += 1
            state.byteCount += bytes
            if isOver(state) { evict(&state) }
        }
    }

    /// Forgets the pages of the streams `change` names: call it after the write committed.
    func forget(_ change: Change) {
        state.withLock { state in
            switch change {
            case .everything: removeAll(from: &state)
            case .streams(let streams): for stream in streams { remove(stream, from: &state) }
            }
        }
    }

    /// Forgets every page and keeps none from now on (the store closed).
    func close() {
        state.withLock { state in
            state.closed = true
            removeAll(from: &state)
        }
    }

    /// Pages kept now.
    var pageCount: Int { state.withLock { $0.pageCount } }

    private func removeAll(from state: inout State) {
        // Stamps keep counting: a ticket taken before this can never match again.
        state.streams.removeAll()
        state.arrival.removeAll()
        state.pageCount = 0
        state.byteCount = 0
    }

    private func remove(_ stream: StreamID, from state: inout State) {
        guard let removed = state.streams.removeValue(forKey: stream) else { return }
        state.pageCount -= removed.pages.count
        state.byteCount -= removed.bytes
    }

    /// Whether a budget is exceeded, or the list of arrivals has grown long with the names
    /// of streams since forgotten (a stream seen again after a write is listed again).
    private func isOver(_ state: State) -> Bool {
        // Streams without pages (a miss whose page was not kept) count against the pages.
        state.pageCount > maximumPages || state.byteCount > maximumBytes || state.streams.count > maximumPages
            || state.arrival.count > 2 * maximumPages
    }

    /// Drops the streams seen first until at most half of each budget is used, and the
    /// names of forgotten streams from the list of arrivals.
    private func evict(_ state: inout State) {
        var dropped = 0
        while dropped < state.arrival.count,
            state.pageCount > maximumPages / 2 || state.byteCount > maximumBytes / 2 || state.streams.count > maximumPages / 2
        {
            remove(state.arrival[dropped], from: &state)
            dropped += 1
        }
        var listed = Set<StreamID>()
        state.arrival = state.arrival.dropFirst(dropped).filter { state.streams[$0] != nil && listed.insert($0).inserted }
    }

    private static func bytes(of page: EncodedNotificationPage) -> Int {
        page.notifications.reduce(page.serverChangeToken.rawValue.utf8.count) { $0 + $1.json.count }
    }
}
