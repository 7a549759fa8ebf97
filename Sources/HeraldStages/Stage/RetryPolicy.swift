import Logging
import ServiceLifecycle

/// How work that failed for a transient reason is retried (a batch, a restore, a reader
/// write): after a first pause, each further pause doubles, up to a ceiling. Never gives up
/// by itself: what stops a retry is a fatal error or the service shutting down.
public struct RetryPolicy: Sendable, Hashable {
    /// The pause before the first retry.
    public var initial: Duration
    /// The longest pause.
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(10)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The pause after the `attempt`-th failure (1 for the first).
    public func pause(after attempt: Int) -> Duration {
        let factor = 1 << min(max(attempt, 1) - 1, 16)
        return min(initial * factor, maximum)
    }

    /// After the `attempt`-th failure of some work with `error`: rethrows `error` when the
    /// task is cancelled or its service is shutting down (the work is abandoned), else logs
    /// `failure` with the attempt and the pause, and sleeps that pause before the caller retries.
    func pauseOrStop(
        after attempt: Int, error: any Error, logger: Logger, _ failure: @autoclosure () -> String
    ) async throws {
        if Task.isCancelled || Task.isShuttingDownGracefully { throw error }
        let pause = pause(after: attempt)
        logger.error("\(failure()) (attempt \(attempt)), retrying in \(pause): \(error)")
        try await Task.sleep(for: pause)
    }
}
