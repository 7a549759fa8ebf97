import Foundation

/// When to try a push again: exponential back-off with jitter, capped, honouring the
/// provider's `Retry-After`.
///
/// The delay before retry `n` (1 for the first retry) is `initialDelay · multiplier^(n-1)`,
/// capped at `maximumDelay`, then scaled by a random factor in `[1 - jitter, 1]` so that
/// pushes refused together do not come back together. A `Retry-After` longer than that is
/// used instead (it is a floor, never shortened by jitter), up to `maximumRetryAfter`.
public struct PushRetryPolicy: Sendable, Hashable {
    /// The delay before the first retry. Default 500 ms.
    public var initialDelay: Duration = .milliseconds(500)
    /// Growth per attempt. Default 2.
    public var multiplier: Double = 2
    /// The longest back-off without `Retry-After`. Default 5 minutes.
    public var maximumDelay: Duration = .seconds(300)
    /// The longest `Retry-After` believed; a larger one is cut to this. Default 1 hour.
    public var maximumRetryAfter: Duration = .seconds(3600)
    /// How many retries before the push is given up (dead-lettered). Default 8.
    public var maximumAttempts: Int = 8
    /// The fraction of the delay that is random, 0…1. Default 0.5.
    public var jitter: Double = 0.5

    /// The defaults above.
    public init() {}

    /// The delay before retry `attempt` (1-based), or `nil` when the attempts are used up.
    /// - Parameters:
    ///   - attempt: which retry this is; values below 1 count as 1.
    ///   - retryAfterSeconds: the provider's `Retry-After`, if any.
    ///   - random: the jitter's source; inject a seeded one for repeatable delays.
    public func delay(
        attempt: Int, retryAfterSeconds: Int?, using random: inout some RandomNumberGenerator
    ) -> Duration? {
        guard attempt <= maximumAttempts else { return nil }
        let exponent = Double(max(attempt, 1) - 1)
        let initial = initialDelay.secondsDouble
        let capped = min(initial * pow(max(multiplier, 1), exponent), maximumDelay.secondsDouble)
        let spread = min(max(jitter, 0), 1)
        let factor = 1 - spread + spread * Double.random(in: 0...1, using: &random)
        var seconds = capped * factor
        if let retryAfterSeconds, retryAfterSeconds > 0 {
            seconds = max(seconds, min(Double(retryAfterSeconds), maximumRetryAfter.secondsDouble))
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var secondsDouble: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
