import Synchronization

/// A clock the test moves by hand, in milliseconds since 1970, that counts how often it is
/// read: code under test that reads it after a move has seen the new time, so a test waits
/// for reads instead of sleeping until a timer has surely run.
public final class VirtualClock: Sendable {
    private let state: Mutex<(now: Int64, reads: Int)>

    public init(_ start: Int64) { state = Mutex((start, 0)) }

    /// The time now; counts as a read.
    public var now: Int64 {
        state.withLock { state in
            state.reads += 1
            return state.now
        }
    }

    /// How often ``now`` has been read.
    public var reads: Int { state.withLock { $0.reads } }

    /// Moves the clock to `instant`.
    public func set(_ instant: Int64) { state.withLock { $0.now = instant } }

    /// Moves the clock `step` milliseconds on.
    public func advance(by step: Int64) { state.withLock { $0.now += step } }

    /// Waits until the clock is read `count` more times (or `timeout` passes). A timer that
    /// runs one tick at a time has finished the tick that first saw the time now once it
    /// reads the clock again, so two reads mean its effects are delivered.
    /// - Returns: whether the reads came.
    @discardableResult
    public func waitForReads(_ count: Int = 2, timeout: Duration = .seconds(30)) async throws -> Bool {
        let target = reads + count
        return try await Wait.until(timeout: timeout, every: .milliseconds(10)) { reads >= target }
    }
}
