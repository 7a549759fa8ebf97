import Dispatch
import Synchronization

/// Runs blocking librdkafka calls (polls with a timeout, flush, close, synchronous commits)
/// on a dedicated serial queue so they never hold a thread of Swift's cooperative pool.
struct BlockingExecutor: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws(KafkaError) -> T) async throws(KafkaError) -> T {
        let result: Result<T, KafkaError> = await run { () -> Result<T, KafkaError> in
            do throws(KafkaError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` and waits for it at most `timeout`. Returns `nil` when the time is up:
    /// then `body` goes on running on the queue (a librdkafka call cannot be interrupted),
    /// but the caller stops waiting for it.
    func run<T: Sendable>(within timeout: Duration, _ body: @escaping @Sendable () -> T) async -> T? {
        let once = ResumeOnce()
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            queue.async {
                let value = body()
                if once.claim() { continuation.resume(returning: value) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.milliseconds))) {
                if once.claim() { continuation.resume(returning: nil) }
            }
        }
    }
}

/// Lets exactly one of two racing callbacks resume a continuation.
private final class ResumeOnce: Sendable {
    private let done = Atomic<Bool>(false)

    /// `true` for the first caller only.
    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}
