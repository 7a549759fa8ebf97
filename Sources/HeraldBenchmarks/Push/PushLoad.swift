import Synchronization

/// The two load shapes of `herald bench push`: as fast as possible with a fixed number of
/// pushes in flight, and paced at a fixed rate (latency measured from each push's planned
/// start, so a stall is not hidden by the pushes it delays).
enum PushLoad {
    /// What one load measured.
    struct Result: Sendable {
        var seconds: Double
        var latencies: [Duration]
        var failures: Int
        var rate: Double { seconds > 0 ? Double(latencies.count + failures) / seconds : 0 }
    }

    /// Runs `send(i)` for i in 0..<count with `concurrency` in flight; `send` returns
    /// whether the provider accepted.
    static func closed(count: Int, concurrency: Int, _ send: @escaping @Sendable (Int) async -> Bool) async -> Result {
        let next = Counter()
        let clock = ContinuousClock()
        let start = clock.now
        let parts = await withTaskGroup(of: ([Duration], Int).self) { group in
            for _ in 0..<max(concurrency, 1) {
                group.addTask {
                    var latencies: [Duration] = []
                    var failures = 0
                    while true {
                        let index = next.value.add(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        let sent = clock.now
                        if await send(index) { latencies.append(clock.now - sent) } else { failures += 1 }
                    }
                    return (latencies, failures)
                }
            }
            return await group.reduce(into: [([Duration], Int)]()) { $0.append($1) }
        }
        return Result(
            seconds: (clock.now - start).seconds, latencies: parts.flatMap(\.0), failures: parts.reduce(0) { $0 + $1.1 })
    }

    /// Starts `send(i)` at `rate` per second for `count` pushes, every push in its own task.
    static func paced(count: Int, rate: Double, _ send: @escaping @Sendable (Int) async -> Bool) async -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let parts = await withTaskGroup(of: Duration?.self) { group in
            var started = 0
            while started < count {
                let due = min(count, Int((clock.now - start).seconds * rate) + 1)
                while started < due {
                    let planned = start + .seconds(Double(started) / rate)
                    let index = started
                    group.addTask { await send(index) ? clock.now - planned : nil }
                    started += 1
                }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return await group.reduce(into: [Duration?]()) { $0.append($1) }
        }
        let latencies = parts.compactMap { $0 }
        return Result(seconds: (clock.now - start).seconds, latencies: latencies, failures: parts.count - latencies.count)
    }

    /// The next index to send, shared by the closed loop's workers.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }
}
