/// Bounded waits on a condition, for tests: a test never sleeps and hopes, it polls what it
/// waits for (an offset, a stored value, a signal) until it holds or the deadline passes,
/// then asserts on it.
public enum Wait {
    /// Polls `condition` every `interval` until it holds or `timeout` passes.
    /// - Returns: whether it held.
    @discardableResult
    public static func until(
        timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: interval)
        }
        return true
    }

    /// Polls `value` every `interval` until `isDone` accepts it or `timeout` passes.
    /// - Returns: the last value read.
    public static func value<Value>(
        timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(50),
        _ value: () async throws -> Value, until isDone: (Value) -> Bool
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while true {
            let current = try await value()
            if isDone(current) || ContinuousClock.now >= deadline { return current }
            try await Task.sleep(for: interval)
        }
    }
}
