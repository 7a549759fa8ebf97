import Synchronization

/// A one-way "caught up" flag that tasks can wait for.
public final class ReadyGate: Sendable {
    private let state = Mutex<(ready: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public var isReady: Bool { state.withLock { $0.ready } }

    /// Opens the gate and releases every waiter.
    public func open() {
        let waiters = state.withLock { state in
            state.ready = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if !state.ready { state.waiters.append(continuation) }
                return state.ready
            }
            if ready { continuation.resume() }
        }
    }
}
