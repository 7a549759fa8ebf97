import Synchronization

/// Named readiness conditions; the process is ready when every registered one is.
public final class Readiness: Sendable {
    private let state = Mutex<[String: Bool]>([:])

    public init() {}

    /// Adds a condition, not ready yet.
    public func register(_ name: String) {
        state.withLock { $0[name] = $0[name] ?? false }
    }

    public func set(_ name: String, ready: Bool) {
        state.withLock { $0[name] = ready }
    }

    public var isReady: Bool { state.withLock { $0.values.allSatisfy { $0 } } }

    /// Every condition and whether it holds.
    public var conditions: [String: Bool] { state.withLock { $0 } }
}
