import Synchronization

/// Lets `send` wait for room in librdkafka's local queue instead of sleeping: the delivery
/// thread signals after every delivery report, which is when room is freed.
final class QueueSpaceSignal: Sendable {
    private let waiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Waits for the next signal, or at most `timeout` (a safety net, should a report
    /// have freed room just before the wait began).
    func wait(timeout: Duration = .milliseconds(10)) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in waiters.withLock { $0.append(continuation) } }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            signal()
            group.cancelAll()
        }
    }

    /// Wakes every waiter.
    func signal() {
        let woken = waiters.withLock { waiters in
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.resume() }
    }
}
