import Synchronization

/// The stage-level run's ledger: when each notification was produced to `notifications`,
/// and when the stand-in acknowledged a push of it. The push stage sends every push with
/// `apns-id` set to the notification ID, so each answer the stand-in gives is matched to its
/// notification by that header; the time taken is the stand-in's, as it decided the answer
/// (`PushStandIn.Configuration.onAnswer`), not the push stage's own.
///
/// A notification is pushed once per device of its recipient (`expected`); an answer past
/// that is a repeat (the stage sent the same notification to a device twice), an answer
/// whose ID was not produced in this phase is unmatched (a warm-up push answered late).
final class PushAcknowledgements: Sendable {
    /// What one phase (warm-up, maximum rate, paced) measured.
    struct Phase: Sendable {
        /// From each notification's produce to each acknowledgement (200) of a push of it.
        var latencies: [Duration] = []
        /// Notifications produced, and pushes expected for them.
        var notifications = 0
        var expected = 0
        /// Answers 200 matched to a produced notification, within what was expected.
        var acknowledged = 0
        /// Answers other than 200 to a produced notification.
        var refused = 0
        /// Answers past the expected count of their notification.
        var repeated = 0
        /// Answers to notifications not produced in this phase.
        var unmatched = 0
        var firstProduced: ContinuousClock.Instant?
        var lastAcknowledged: ContinuousClock.Instant?

        /// From the first produce to the last acknowledgement.
        var seconds: Double {
            guard let firstProduced, let lastAcknowledged else { return 0 }
            return firstProduced.duration(to: lastAcknowledged).seconds
        }

        /// Acknowledged pushes per second over `seconds`.
        var rate: Double { seconds > 0 ? Double(acknowledged) / seconds : 0 }

        /// Whether every expected push was answered (accepted or refused).
        var isComplete: Bool { acknowledged + refused >= expected }
    }

    private struct Pending {
        var producedAt: ContinuousClock.Instant
        var remaining: Int
    }

    private struct Values {
        var pending: [String: Pending] = [:]
        var phase = Phase()
    }

    private let values = Mutex(Values())

    /// Notes that `ids` were handed to the producer at `instant`, each to be pushed to `expected` devices.
    func produced(_ ids: some Sequence<String>, expected: Int, at instant: ContinuousClock.Instant) {
        values.withLock { values in
            if values.phase.firstProduced == nil { values.phase.firstProduced = instant }
            for id in ids {
                values.pending[id] = Pending(producedAt: instant, remaining: expected)
                values.phase.notifications += 1
                values.phase.expected += expected
            }
        }
    }

    /// Notes the stand-in's answer `status` to a push with `apns-id` `id` at `instant`.
    func answered(_ id: String?, status: Int, at instant: ContinuousClock.Instant) {
        values.withLock { values in
            guard let id, var pending = values.pending[id] else {
                values.phase.unmatched += 1
                return
            }
            guard pending.remaining > 0 else {
                values.phase.repeated += 1
                return
            }
            pending.remaining -= 1
            values.pending[id] = pending
            guard status == 200 else {
                values.phase.refused += 1
                return
            }
            values.phase.acknowledged += 1
            values.phase.latencies.append(pending.producedAt.duration(to: instant))
            if values.phase.lastAcknowledged.map({ $0 < instant }) ?? true { values.phase.lastAcknowledged = instant }
        }
    }

    /// Pushes answered so far in this phase (matched ones, accepted or refused), and how many are expected.
    var progress: (answered: Int, expected: Int) {
        values.withLock { ($0.phase.acknowledged + $0.phase.refused, $0.phase.expected) }
    }

    /// Ends the phase: returns what it measured and starts the next one empty. Notifications
    /// still pending are forgotten (their late answers count as unmatched in the next phase).
    func finish() -> Phase {
        values.withLock { values in
            let phase = values.phase
            values = Values()
            return phase
        }
    }
}
