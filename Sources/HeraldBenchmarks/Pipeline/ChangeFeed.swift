import HeraldKafka
import HeraldReader

/// The maximum-rate measurement Herald and the same-topology relay share: the benchmark's
/// record changes produced as fast as acknowledged (sends of 1,000) into `topic`, while the
/// rows of `store` are counted every 20 ms until all have arrived. Latency pairs the n-th
/// change sent with the n-th row counted (queueing, at this rate).
struct ChangeFeed {
    let benchmark: PipelineBenchmark
    let topic: String
    let producer: KafkaProducer
    let store: NotificationStore
    let counter: AllocationCounter?

    /// Produces the changes and waits (10 minutes at most) for as many new rows.
    /// - Returns: changes per second from the first send to the last row, with the CPU and
    ///   allocations used meanwhile.
    /// - Throws: `BenchmarkError` when the rows do not all arrive.
    func run() async throws -> PipelineReport.Path {
        let changes = benchmark.settings.changes
        let (benchmark, topic, producer) = (self.benchmark, self.topic, self.producer)
        let initial = try await store.stats().notifications
        let before = ResourceUsage.now(counter)
        let started = ContinuousClock.now
        let producing = Task {
            var times: [ContinuousClock.Instant] = []
            times.reserveCapacity(changes)
            for start in stride(from: 0, to: changes, by: 1_000) {
                let now = ContinuousClock.now
                let range = start..<min(changes, start + 1_000)
                _ = try await producer.send(range.map { benchmark.changeMessage($0, topic: topic) })
                times += repeatElement(now, count: range.count)
            }
            return times
        }
        var arrivals: [ContinuousClock.Instant] = []
        var stored = 0
        var finished = started
        let deadline = started + .seconds(600)
        while stored < changes, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            let count = try await store.stats().notifications - initial
            if count > stored {
                let now = ContinuousClock.now
                arrivals += repeatElement(now, count: count - stored)
                stored = count
                finished = now
            }
        }
        let used = ResourceUsage.now(counter).since(before)
        let sent = try await producing.value
        guard stored >= changes else { throw BenchmarkError("only \(stored) of \(changes) notifications arrived in \(topic)'s pipeline") }
        return PipelineReport.Path(
            changesPerSecond: Double(changes) / started.duration(to: finished).seconds,
            cpuMicrosecondsPerChange: used.cpuMicroseconds(per: changes), allocationsPerChange: used.allocations(per: changes),
            latency: LatencySummary(zip(sent, arrivals).map { $0.duration(to: $1) }))
    }
}
