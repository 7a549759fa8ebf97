import Synchronization

/// The messages of one `KafkaProducer.enqueue` call (or a part of one) and their delivery
/// results as they arrive: one per message, from its delivery report, a failed enqueue, or
/// the producer's end.
///
/// Written by the producer's event thread and the enqueueing task, read by whoever awaits
/// it; any number of tasks may await a batch, before or after it completes.
final class DeliveryBatch: Sendable {
    /// The tracker's number for this batch (the high bits of each message's opaque).
    let id: UInt64
    private let state: Mutex<State>

    /// What the messages became, by index.
    struct Outcome: Sendable {
        /// The partition each message was stored in (-1 when it was not).
        var partitions: [Int32]
        var offsets: [Int64]
        /// Why a message was not delivered, by index.
        var errors: [Int: KafkaError]
    }

    private struct State {
        var outcome: Outcome
        var resolved: [Bool]
        var remaining: Int
        var waiters: [CheckedContinuation<Outcome, Never>] = []

        /// Sets message `index`'s result unless it has one.
        mutating func resolve(_ index: Int, partition: Int32, offset: Int64, error: KafkaError?) {
            guard !resolved[index] else { return }
            resolved[index] = true
            remaining -= 1
            outcome.partitions[index] = partition
            outcome.offsets[index] = offset
            if let error { outcome.errors[index] = error }
        }

        /// The waiters to resume and what they get, once every message has a result.
        mutating func takeWaitersIfComplete() -> ([CheckedContinuation<Outcome, Never>], Outcome)? {
            guard remaining == 0 else { return nil }
            defer { waiters = [] }
            return (waiters, outcome)
        }
    }

    init(id: UInt64, count: Int) {
        self.id = id
        state = Mutex(State(
            outcome: Outcome(
                partitions: Array(repeating: -1, count: count), offsets: Array(repeating: -1, count: count), errors: [:]),
            resolved: Array(repeating: false, count: count),
            remaining: count))
    }

    /// Records the results of some of the batch's messages.
    /// - Returns: `true` when this completed the batch (its waiters have been resumed).
    func record(_ results: ArraySlice<DeliveryTracker.Result>) -> Bool {
        let completed = state.withLock { state -> ([CheckedContinuation<Outcome, Never>], Outcome)? in
            guard state.remaining > 0 else { return nil }
            for result in results {
                state.resolve(result.index, partition: result.partition, offset: result.offset, error: result.error)
            }
            return state.takeWaitersIfComplete()
        }
        return resume(completed)
    }

    /// Gives every message still without a result this error.
    /// - Returns: `true` when this completed the batch.
    func fail(_ error: KafkaError) -> Bool {
        let completed = state.withLock { state -> ([CheckedContinuation<Outcome, Never>], Outcome)? in
            guard state.remaining > 0 else { return nil }
            for index in state.resolved.indices where !state.resolved[index] {
                state.resolve(index, partition: -1, offset: -1, error: error)
            }
            return state.takeWaitersIfComplete()
        }
        return resume(completed)
    }

    private func resume(_ completed: ([CheckedContinuation<Outcome, Never>], Outcome)?) -> Bool {
        guard let (waiters, outcome) = completed else { return false }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return true
    }

    /// Waits until every message has a result.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Outcome? in
                guard state.remaining > 0 else { return state.outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Whether every message has a result.
    var isComplete: Bool { state.withLock { $0.remaining == 0 } }
}
