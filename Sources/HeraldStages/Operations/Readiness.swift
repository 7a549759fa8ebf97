import Synchronization

/// Named readiness conditions; the process is ready when every registered one is. A
/// condition that is not ready may say why (`/health/ready` shows it).
public final class Readiness: Sendable {
    private struct Condition {
        var ready = false
        var reason: String?
    }

    private let state = Mutex<[String: Condition]>([:])

    public init() {}

    /// Adds a condition, not ready yet.
    public func register(_ name: String) {
        state.withLock { $0[name] = $0[name] ?? Condition() }
    }

    /// Sets a condition; `reason` says why it is not ready (ignored when ready).
    public func set(_ name: String, ready: Bool, reason: String? = nil) {
        state.withLock { $0[name] = Condition(ready: ready, reason: ready ? nil : reason) }
    }

    public var isReady: Bool { state.withLock { $0.values.allSatisfy(\.ready) } }

    /// Every condition and whether it holds.
    public var conditions: [String: Bool] { state.withLock { $0.mapValues(\.ready) } }

    /// Why conditions are not ready, for those that said.
    public var reasons: [String: String] { state.withLock { $0.compactMapValues(\.reason) } }
}
