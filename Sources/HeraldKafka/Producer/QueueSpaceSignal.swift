import Synchronization

/// Lets `send` wait for room in librdkafka's local queue instead of sleeping: the delivery
/// thread signals after every delivery report, which is when room is freed.
final class QueueSpaceSignal: Sendable {
    private struct State {
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits that ended by timeout before their continuation was registered.
        var abandoned: Set<Int> = []
    }

    private let state = Mutex(State())

    /// Waits for the next signal, or at most `timeout` (a safety net, should a report
    /// have freed room just before the wait began).
    func wait(timeout: Duration = .milliseconds(10)) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.abandoned.remove(id) != nil { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            // Whichever finished first, make sure the waiter child finishes too.
            let pending = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let continuation = state.waiters.removeValue(forKey: id) { return continuation }
                state.abandoned.insert(id)
                return nil
            }
            pending?.resume()
            group.cancelAll()
        }
        // A signal may have resumed the waiter before `abandoned` was marked: clear the mark.
        _ = state.withLock { $0.abandoned.remove(id) }
    }

    /// Wakes every waiter.
    func signal() {
        let woken = state.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }
}
