import NIOCore
import NIOHPACK
import Synchronization

/// One request on its way to a provider connection: its header block (pseudo-headers
/// first), its body, when it must have been answered, and where the answer goes.
struct ProviderStreamRequest: Sendable {
    var headers: HPACKHeaders
    var body: ByteBuffer
    var deadline: NIODeadline
    var reply: CheckedContinuation<ProviderExchange.Outcome, Never>
}

/// The requests callers have handed to one connection and its event loop has not yet
/// written. Callers on any thread append; the first append after a drain asks the caller
/// to schedule the next drain, so that under load one event-loop turn writes many
/// requests and flushes once (one TLS record batch, one syscall) instead of once each.
final class ProviderOutbox: Sendable {
    /// What `enqueue` did with a request.
    enum Enqueued {
        /// Queued, and no drain is scheduled: the caller schedules one.
        case scheduleDrain
        /// Queued behind others; a drain is already scheduled.
        case queued
        /// Refused: the connection is closing or closed, for this reason.
        case closed(String)
    }

    private struct State {
        var queued: [ProviderStreamRequest] = []
        var drainScheduled = false
        var closedReason: String?
    }

    private let state = Mutex(State())

    /// Whether the connection still takes requests.
    var isOpen: Bool {
        state.withLock { $0.closedReason == nil }
    }

    /// Queues `request` unless the connection is closed.
    func enqueue(_ request: ProviderStreamRequest) -> Enqueued {
        state.withLock { state in
            if let reason = state.closedReason { return .closed(reason) }
            state.queued.append(request)
            if state.drainScheduled { return .queued }
            state.drainScheduled = true
            return .scheduleDrain
        }
    }

    /// Everything queued, oldest first; the next `enqueue` schedules a new drain.
    func takeAll() -> [ProviderStreamRequest] {
        state.withLock { state in
            state.drainScheduled = false
            defer { state.queued.removeAll(keepingCapacity: true) }
            return state.queued
        }
    }

    /// Refuses further requests with `reason` (the first reason given stays) and returns
    /// those still queued, for the caller to answer.
    func close(_ reason: String) -> [ProviderStreamRequest] {
        state.withLock { state in
            if state.closedReason == nil { state.closedReason = reason }
            defer { state.queued = [] }
            return state.queued
        }
    }
}
