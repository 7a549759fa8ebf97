import AsyncHTTPClient
import Foundation
import HeraldAPI
import HeraldApp
import HeraldKafka
import HeraldStages
import Synchronization

/// The paced part of the pipeline benchmark: record changes produced at a fixed rate for a
/// fixed time (every 5 ms what is due), and every 20 ms one of them a probe that fires a
/// subscription of a probe user. Each probe user's client reads its notifications over
/// HTTP, so a probe's latency is from its produce to the HTTP answer that first carried it:
/// produce → fetchable over HTTP. By default (`ProbeMode.stream`) the client holds the
/// user's event stream open (`ProbeStream`), which carries each notification as soon as the
/// reader applied it; with `.poll` it fetches 1–20 ms apart (a twentieth of the oldest
/// pending probe's age, `ProbeFetcher`), which bounds both the error and the load the
/// polling adds.
struct PacedLoad {
    /// Probe users `_probe0`…, each with one subscription (`category == 'probe-N'`).
    static let probeUsers = 4
    static let probeInterval: Duration = .milliseconds(20)
    static let tick: Duration = .milliseconds(5)
    /// Sends at once; past it the producer waits, so a broker that cannot keep up shows as
    /// a lower achieved rate instead of unbounded memory.
    static let sendsInFlight = 64
    static let container = "iCloud.bench"

    let benchmark: PipelineBenchmark
    let producer: KafkaProducer
    let topic: String
    let httpPort: Int
    let rate: Double
    let seconds: Double
    /// The first change number to use (the maximum-rate run used those below).
    let firstChange: Int
    /// Reads the probes' way back from the topics once they are all fetched.
    let trace: ProbeTrace
    /// How the probe users read their notifications.
    let probe: PipelineBenchmark.ProbeMode

    /// The probe subscription of probe user `user`.
    static func probeCategory(_ user: Int) -> String { "probe-\(user)" }

    /// Produces at `rate` for `seconds`, then waits (a minute at most) for every probe.
    /// - Throws: `BenchmarkError` when a probe's notification never becomes fetchable.
    func run() async throws -> PipelineReport.Paced {
        let ledger = ProbeLedger()
        let authenticator = try await APIAuthenticator(secret: HeraldConfiguration.Secret.developmentJWT.value)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        do {
            let paced = try await run(ledger: ledger, authenticator: authenticator, client: client)
            try await client.shutdown()
            return paced
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The paced run, the probe users' clients on `client`.
    private func run(ledger: ProbeLedger, authenticator: APIAuthenticator, client: HTTPClient) async throws -> PipelineReport.Paced {
        var fetchers: [ProbeFetcher] = []
        for user in 0..<Self.probeUsers {
            let bearer = try await authenticator.issueToken(user: "_probe\(user)", container: Self.container)
            fetchers.append(ProbeFetcher(port: httpPort, container: Self.container, bearer: bearer, client: client))
        }
        return try await withThrowingTaskGroup(of: Void.self) { pollers in
            for (user, fetcher) in fetchers.enumerated() {
                // The first fetch checks the API answers and gives the token to poll after.
                let start = try await fetcher.fetch(after: nil).token
                switch probe {
                case .poll:
                    pollers.addTask { try await Self.poll(fetcher, user: user, after: start, ledger: ledger) }
                case .stream:
                    let stream = ProbeStream(port: httpPort, container: Self.container, bearer: fetcher.bearer, client: client)
                    pollers.addTask { try await Self.listen(stream, user: user, after: start, ledger: ledger) }
                }
            }
            let (changes, elapsed) = try await produce(ledger)
            await ledger.close()
            try await pollers.waitForAll()
            let latencies = await ledger.latencies
            guard let latency = LatencySummary(latencies) else { throw BenchmarkError("the paced run produced no probe") }
            var paced = PipelineReport.Paced(
                rate: rate, achievedRate: Double(changes) / elapsed.seconds, seconds: elapsed.seconds, changes: changes,
                latency: latency)
            paced.hops = try await trace.hops(of: await ledger.fetched)
            paced.probe = probe
            return paced
        }
    }

    /// Produces what is due every tick, a probe every `probeInterval`.
    /// - Returns: the changes produced (probes included) and the time it took.
    private func produce(_ ledger: ProbeLedger) async throws -> (Int, Duration) {
        let (benchmark, producer, topic) = (self.benchmark, self.producer, self.topic)
        let started = ContinuousClock.now
        let end = started + .seconds(seconds)
        var next = firstChange
        var produced = 0
        var nextProbe = started
        var probeUser = 0
        try await withThrowingTaskGroup(of: Void.self) { sends in
            var inFlight = 0
            var tick = started
            while tick < end {
                let now = ContinuousClock.now
                var batch: [OutgoingMessage] = []
                let due = Int(rate * started.duration(to: now).seconds) - produced
                if now >= nextProbe {
                    batch.append(benchmark.changeMessage(next, topic: topic, category: Self.probeCategory(probeUser)))
                    await ledger.produced("item-\(next)", user: probeUser, at: now)
                    next += 1
                    probeUser = (probeUser + 1) % Self.probeUsers
                    nextProbe += Self.probeInterval
                }
                while batch.count < due {
                    batch.append(benchmark.changeMessage(next, topic: topic))
                    next += 1
                }
                produced += batch.count
                if !batch.isEmpty {
                    if inFlight >= Self.sendsInFlight {
                        try await sends.next()
                        inFlight -= 1
                    }
                    sends.addTask { [batch] in _ = try await producer.send(batch) }
                    inFlight += 1
                }
                tick += Self.tick
                try await Task.sleep(until: tick, clock: .continuous)
            }
            try await sends.waitForAll()
        }
        return (produced, started.duration(to: .now))
    }

    /// Reads `user`'s event stream until the ledger is closed and none of the user's probes
    /// is pending (a minute after closing at most). An event's arrival is when its
    /// notification became fetchable: the trace's reader hop runs to it, its fetch gap is 0.
    private static func listen(_ stream: ProbeStream, user: Int, after start: String, ledger: ProbeLedger) async throws {
        // An unstructured task, cancelled rather than awaited at the end: a stream waiting for
        // its next event notices cancellation only when one arrives (a heartbeat, seconds
        // later); the client's shutdown ends its request.
        let failure = Mutex<(any Error)?>(nil)
        let reading = Task {
            do {
                try await stream.read(after: start) { name in
                    await ledger.fetched([name], user: user, at: .now, previousFetchMs: ProbeLedger.wallMilliseconds())
                }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        defer { reading.cancel() }
        var closedAt: ContinuousClock.Instant?
        while true {
            if let error = failure.withLock({ $0 }) { throw error }
            if await ledger.isClosed {
                if await ledger.oldestPending(user: user) == nil { return }
                let closed = closedAt ?? .now
                closedAt = closed
                if closed.duration(to: .now) > .seconds(60) {
                    throw BenchmarkError("\(await ledger.pendingCount) probe notifications were not fetchable a minute after the paced run")
                }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Fetches `user`'s notifications while probes are pending, until the ledger is closed
    /// and none is left (a minute after closing at most).
    private static func poll(_ fetcher: ProbeFetcher, user: Int, after start: String, ledger: ProbeLedger) async throws {
        var token = start
        var closedAt: ContinuousClock.Instant?
        var previousFetchMs: Double?
        while true {
            guard let oldest = await ledger.oldestPending(user: user) else {
                if await ledger.isClosed { return }
                try await Task.sleep(for: .milliseconds(1))
                continue
            }
            if closedAt == nil, await ledger.isClosed { closedAt = .now }
            if let closedAt, closedAt.duration(to: .now) > .seconds(60) {
                throw BenchmarkError("\(await ledger.pendingCount) probe notifications were not fetchable a minute after the paced run")
            }
            let fetchMs = ProbeLedger.wallMilliseconds()
            let page = try await fetcher.fetch(after: token)
            token = page.token
            await ledger.fetched(page.recordNames, user: user, at: .now, previousFetchMs: previousFetchMs)
            previousFetchMs = fetchMs
            if page.moreComing { continue }
            let wait = min(max(oldest.duration(to: .now) / 20, .milliseconds(1)), .milliseconds(20))
            try await Task.sleep(for: wait)
        }
    }
}
