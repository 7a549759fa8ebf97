import HeraldPush
import HeraldTestSupport
import Testing

@Suite("Push retry policy")
struct PushRetryPolicyTests {
    @Test("without jitter the delay doubles per attempt up to the cap")
    func exponentialCapped() {
        var policy = PushRetryPolicy()
        policy.jitter = 0
        policy.maximumDelay = .seconds(3)
        var random = SeededGenerator(seed: 1)
        let delays = (1...5).map { policy.delay(attempt: $0, retryAfterSeconds: nil, using: &random) }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
    }

    @Test("jitter stays within [1 - jitter, 1] of the delay and repeats with the same seed")
    func jitterBoundedAndRepeatable() throws {
        let policy = PushRetryPolicy()
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        for attempt in 1...6 {
            let a = try #require(policy.delay(attempt: attempt, retryAfterSeconds: nil, using: &first))
            let b = try #require(policy.delay(attempt: attempt, retryAfterSeconds: nil, using: &second))
            #expect(a == b)
            let full = Duration.milliseconds(500) * (1 << (attempt - 1))
            #expect(a <= full && a >= full / 2)
        }
    }

    @Test("Retry-After is a floor, and an absurd one is cut to the maximum")
    func honoursRetryAfter() {
        let policy = PushRetryPolicy()
        var random = SeededGenerator(seed: 3)
        #expect(policy.delay(attempt: 1, retryAfterSeconds: 30, using: &random) == .seconds(30))
        #expect(policy.delay(attempt: 1, retryAfterSeconds: 999_999, using: &random) == .seconds(3600))
    }

    @Test("after the last attempt there is no delay: the push is given up")
    func givesUp() {
        var policy = PushRetryPolicy()
        policy.maximumAttempts = 2
        var random = SeededGenerator(seed: 9)
        #expect(policy.delay(attempt: 2, retryAfterSeconds: nil, using: &random) != nil)
        #expect(policy.delay(attempt: 3, retryAfterSeconds: 5, using: &random) == nil)
    }
}
