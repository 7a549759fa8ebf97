import HeraldReader
import Synchronization

/// One event stream's interest in one notification stream: a wake-up flag that
/// `StreamNotifier` raises and the event stream awaits. Bounded memory: however many
/// batches arrive while the event stream is busy, one flag is kept — the event stream
/// then reads everything new from the store in one go.
final class StreamListener: Sendable {
    /// Why `wait(timeout:)` returned.
    enum Wake: Sendable, Equatable {
        /// The stream grew (or grew while the listener was busy).
        case grew
        /// Nothing happened within the timeout.
        case timedOut
        /// The notifier finished (shutdown) or the listener was cancelled.
        case closed
    }

    private enum State {
        case idle
        case pending
        case waiting(CheckedContinuation<Wake?, Never>)
        case closed
    }

    let stream: StreamID
    private let state = Mutex<State>(.idle)
    private let onClose: @Sendable (StreamListener) -> Void

    init(stream: StreamID, onClose: @escaping @Sendable (StreamListener) -> Void) {
        self.stream = stream
        self.onClose = onClose
    }

    /// Raises the flag, waking the waiting task if there is one.
    func signal() {
        let continuation: CheckedContinuation<Wake?, Never>? = state.withLock { state in
            switch state {
            case .idle:
                state = .pending
                return nil
            case .pending, .closed:
                return nil
            case .waiting(let continuation):
                state = .idle
                return continuation
            }
        }
        continuation?.resume(returning: .grew)
    }

    /// Closes the listener for good: a waiting task wakes with `.closed`, later waits
    /// return `.closed` at once, and the notifier forgets it. Idempotent.
    func close() {
        let (continuation, wasOpen): (CheckedContinuation<Wake?, Never>?, Bool) = state.withLock { state in
            switch state {
            case .closed:
                return (nil, false)
            case .waiting(let continuation):
                state = .closed
                return (continuation, true)
            case .idle, .pending:
                state = .closed
                return (nil, true)
            }
        }
        continuation?.resume(returning: .closed)
        if wasOpen { onClose(self) }
    }

    /// Whether the flag is raised (without lowering it).
    var isPending: Bool {
        state.withLock { if case .pending = $0 { true } else { false } }
    }

    var isClosed: Bool {
        state.withLock { if case .closed = $0 { true } else { false } }
    }

    /// Waits until the flag is raised (lowering it), the listener closes, `timeout` passes,
    /// or the task is cancelled (`.closed`). Only one task may wait at a time.
    func wait(timeout: Duration) async -> Wake {
        await withTaskGroup(of: Wake?.self) { group in
            group.addTask { await self.wait() }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return nil
                }
            }
            var outcomes: [Wake?] = [await group.next() ?? nil]
            group.cancelAll()
            for await outcome in group { outcomes.append(outcome) }
            // The flag may have been lowered for a wait that lost the race with the timer:
            // growth then wins, or it would be lost.
            for wake in [Wake.grew, .closed, .timedOut] where outcomes.contains(wake) { return wake }
            return .closed  // both cancelled: the waiting task was cancelled
        }
    }

    /// Waits for the flag (`.grew`) or a close (`.closed`); cancellation returns `nil`
    /// without closing and without lowering the flag.
    private func wait() async -> Wake? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake?, Never>) in
                let immediate: Wake?? = state.withLock { state in
                    switch state {
                    case .pending:
                        state = .idle
                        return .some(.grew)
                    case .closed:
                        return .some(.closed)
                    case .waiting:
                        preconditionFailure("two tasks wait on one StreamListener")
                    case .idle:
                        // Checked under the lock, so a cancellation handler running
                        // concurrently either sees `.waiting` or ran before this check.
                        if Task.isCancelled { return .some(nil) }
                        state = .waiting(continuation)
                        return nil
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Wake?, Never>? = state.withLock { state in
                guard case .waiting(let continuation) = state else { return nil }
                state = .idle
                return continuation
            }
            continuation?.resume(returning: nil)
        }
    }
}
