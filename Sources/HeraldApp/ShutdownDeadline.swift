import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Bounds shutdown: once graceful shutdown begins (SIGTERM, SIGINT, or a service failing),
/// the process has `timeout` to finish. Services get most of it to finish their batch, commit
/// and leave their groups (`ServiceGroup`'s `maximumGracefulShutdownDuration`, then task
/// cancellation); the rest is for flushing the producer. When the time is up, whatever still
/// runs is abandoned — named in a critical log line — and the process exits 1. Nothing is
/// lost: work not committed is consumed again by the group.
final class ShutdownDeadline: Service {
    let timeout: Duration
    private let logger: Logger
    private let running = Mutex<[String: Int]>([:])
    private let disarmed = Atomic<Bool>(false)
    private let exit: @Sendable (Int32) -> Void

    /// - Parameter exit: ends the process (a test passes something else).
    init(timeout: Duration, logger: Logger, exit: @escaping @Sendable (Int32) -> Void = { Foundation.exit($0) }) {
        self.timeout = timeout
        self.logger = logger
        self.exit = exit
    }

    /// The share of `timeout` services get before they are cancelled.
    var gracefulShare: Duration { timeout * 3 / 5 }

    /// The time left for flushing the producer after the services ended.
    var flushShare: Duration { timeout / 5 }

    /// `service`, reporting to this deadline whether it still runs.
    func tracking(_ service: any Service, name: String) -> any Service {
        TrackedService(service: service, name: name, deadline: self)
    }

    /// What still runs.
    var unfinished: [String] {
        running.withLock { $0.filter { $0.value > 0 }.map(\.key).sorted() }
    }

    /// Shutdown finished: the timer, if started, does nothing.
    func disarm() { disarmed.store(true, ordering: .releasing) }

    func started(_ name: String) { running.withLock { $0[name, default: 0] += 1 } }
    func finished(_ name: String) { running.withLock { $0[name, default: 1] -= 1 } }

    func run() async throws {
        try? await gracefulShutdown()
        let started = ContinuousClock.now
        let (timeout, logger, exit) = (self.timeout, self.logger, self.exit)
        logger.notice("shutting down", metadata: ["timeout": .string("\(timeout)")])
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))) { [self] in
            guard !disarmed.load(ordering: .acquiring) else { return }
            let left = unfinished
            logger.critical(
                "shutdown did not finish within \(timeout); abandoned: \(left.isEmpty ? "flushing the producer" : left.joined(separator: ", ")); work not committed will be consumed again",
                metadata: ["elapsed": .string("\(ContinuousClock.now - started)")])
            exit(1)
        }
    }
}

/// A service that tells a `ShutdownDeadline` when it starts and ends.
private struct TrackedService: Service {
    let service: any Service
    let name: String
    let deadline: ShutdownDeadline

    func run() async throws {
        deadline.started(name)
        defer { deadline.finished(name) }
        try await service.run()
    }
}
