import Synchronization

/// How many more times a test double fails before it succeeds: each ``spend()`` uses one
/// failure while any are left.
public final class FailureBudget: Sendable {
    private let remaining: Mutex<Int>

    public init(_ failures: Int) { remaining = Mutex(failures) }

    /// Whether this call should fail (a failure was left, and is now used).
    public func spend() -> Bool {
        remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}
