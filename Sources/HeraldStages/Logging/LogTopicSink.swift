import Metrics
import Synchronization

/// A bounded buffer of log lines between the loggers (any thread) and the `LogShipper`.
///
/// `append` never blocks and never waits for Kafka: when the buffer is full the line is
/// dropped and counted (`herald_log_lines_dropped_total`), so logging can never slow or stall
/// a stage, whatever happens to the brokers.
public final class LogTopicSink: Sendable {
    public let capacity: Int
    private let state = Mutex<(lines: [LogLine], dropped: Int)>(([], 0))
    private let droppedCounter: Counter

    /// Creates the buffer and its `herald_log_lines_dropped_total` counter (at 0).
    /// - Parameters:
    ///   - capacity: lines held at most. Default: 10 000.
    ///   - metrics: where the counter lives. Default: the `MetricsSystem` bootstrapped
    ///     now — bootstrap it first, or the counter goes to the no-op backend and never
    ///     appears in `/metrics`.
    public init(capacity: Int = 10_000, metrics: (any MetricsFactory)? = nil) {
        self.capacity = capacity
        self.droppedCounter = Counter(label: "herald_log_lines_dropped_total", factory: metrics ?? MetricsSystem.factory)
    }

    /// Adds a line, or drops it when full. - Returns: `false` when dropped.
    @discardableResult
    public func append(_ line: LogLine) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.lines.count < capacity else {
                state.dropped += 1
                return false
            }
            state.lines.append(line)
            return true
        }
        if !accepted { droppedCounter.increment() }
        return accepted
    }

    /// Takes up to `limit` of the oldest lines.
    public func take(upTo limit: Int) -> [LogLine] {
        state.withLock { state in
            let count = min(limit, state.lines.count)
            let taken = Array(state.lines.prefix(count))
            state.lines.removeFirst(count)
            return taken
        }
    }

    /// Lines dropped because the buffer was full (or could not be shipped).
    public var droppedCount: Int { state.withLock { $0.dropped } }

    public var bufferedCount: Int { state.withLock { $0.lines.count } }

    /// Counts lines lost after they left the buffer (the shipper gave up on them).
    func countDropped(_ count: Int) {
        state.withLock { $0.dropped += count }
        droppedCounter.increment(by: count)
    }
}
