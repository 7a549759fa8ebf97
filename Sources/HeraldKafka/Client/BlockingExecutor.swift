import Dispatch

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
}
