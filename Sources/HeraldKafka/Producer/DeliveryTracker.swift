import Synchronization

/// Matches delivery reports to the `send` calls waiting for them.
///
/// Each message's opaque is an integer, not an allocation: the batch number in the high
/// bits and the message's index in the low 24 bits. One lock round per delivery event.
final class DeliveryTracker: Sendable {
    static let indexBits: UInt64 = 24
    static let maxBatchSize = 1 << 24

    struct Outcome: Sendable {
        var partitions: [Int32]
        var offsets: [Int64]
        var errors: [Int: KafkaError]
    }

    /// A batch waiting for its reports. A class so that recording one result mutates it in
    /// place: a struct copied out of the dictionary would copy its arrays on every write.
    /// Only touched under `state`'s lock.
    private final class Batch {
        var outcome: Outcome
        var remaining: Int
        var continuation: CheckedContinuation<Outcome, Never>?

        init(count: Int) {
            outcome = Outcome(
                partitions: Array(repeating: -1, count: count), offsets: Array(repeating: -1, count: count), errors: [:])
            remaining = count
        }
    }

    private struct State {
        var nextID: UInt64 = 1
        var batches: [UInt64: Batch] = [:]
    }

    private let state = Mutex(State())

    /// Registers a batch of `count` messages and returns its number.
    func begin(count: Int) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.batches[id] = Batch(count: count)
            return id
        }
    }

    static func opaque(batch: UInt64, index: Int) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(batch << indexBits | UInt64(index)))
    }

    /// One delivery result, as read from a delivery report or a failed enqueue.
    struct Result {
        var opaque: UnsafeMutableRawPointer?
        var partition: Int32
        var offset: Int64
        var error: KafkaError?
    }

    /// Records results and resumes every batch they complete.
    func record(_ results: [Result]) {
        var completed: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
        state.withLock { state in
            for result in results {
                let bits = UInt64(UInt(bitPattern: result.opaque))
                let id = bits >> Self.indexBits
                let index = Int(bits & (1 << Self.indexBits - 1))
                guard let batch = state.batches[id] else { continue }
                batch.outcome.partitions[index] = result.partition
                batch.outcome.offsets[index] = result.offset
                if let error = result.error { batch.outcome.errors[index] = error }
                batch.remaining -= 1
                if batch.remaining == 0, let continuation = batch.continuation {
                    state.batches[id] = nil
                    completed.append((continuation, batch.outcome))
                }
            }
        }
        for (continuation, outcome) in completed { continuation.resume(returning: outcome) }
    }

    /// Waits until every message of the batch has a result.
    func wait(for id: UInt64) async -> Outcome {
        await withCheckedContinuation { continuation in
            let ready: Outcome? = state.withLock { state in
                guard let batch = state.batches[id] else { return Outcome(partitions: [], offsets: [], errors: [:]) }
                if batch.remaining == 0 {
                    state.batches[id] = nil
                    return batch.outcome
                }
                batch.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Fails every message still waiting (the producer was closed before they were delivered).
    func failAll(_ error: KafkaError) {
        let completed: [(CheckedContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
            var completed: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
            for (id, batch) in state.batches {
                for index in batch.outcome.offsets.indices
                where batch.outcome.offsets[index] < 0 && batch.outcome.errors[index] == nil {
                    batch.outcome.errors[index] = error
                }
                batch.remaining = 0
                if let continuation = batch.continuation {
                    state.batches[id] = nil
                    completed.append((continuation, batch.outcome))
                }  // else a later `wait` returns at once
            }
            return completed
        }
        for (continuation, outcome) in completed { continuation.resume(returning: outcome) }
    }

    var inFlightBatches: Int { state.withLock { $0.batches.count } }
}
