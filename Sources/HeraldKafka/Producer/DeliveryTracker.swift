import Synchronization

/// Routes delivery reports to the batches waiting for them.
///
/// Each message's opaque is an integer, not an allocation: the batch number in the high
/// bits and the message's index in the low 24 bits. One lookup per run of reports of the
/// same batch (a delivery event holds one partition's messages, mostly of one batch).
final class DeliveryTracker: Sendable {
    static let indexBits: UInt64 = 24
    static let maxBatchSize = 1 << 24

    /// One delivery result, as read from a delivery report or a failed enqueue.
    struct Result {
        var opaque: UnsafeMutableRawPointer?
        var partition: Int32
        var offset: Int64
        var error: KafkaError?

        var batchID: UInt64 { UInt64(UInt(bitPattern: opaque)) >> DeliveryTracker.indexBits }
        var index: Int { Int(UInt64(UInt(bitPattern: opaque)) & (1 << DeliveryTracker.indexBits - 1)) }
    }

    private struct State {
        var nextID: UInt64 = 1
        var batches: [UInt64: DeliveryBatch] = [:]
        /// Set once nothing more will be delivered (closed, or a fatal error): new batches fail at once.
        var end: KafkaError?
    }

    private let state = Mutex(State())

    /// Registers a batch of `count` (at most `maxBatchSize`) messages.
    func begin(count: Int) -> DeliveryBatch {
        precondition(count <= Self.maxBatchSize, "a delivery batch holds at most \(Self.maxBatchSize) messages")
        let (batch, end) = state.withLock { state in
            let batch = DeliveryBatch(id: state.nextID, count: count)
            state.nextID += 1
            if state.end == nil { state.batches[batch.id] = batch }
            return (batch, state.end)
        }
        if let end { _ = batch.fail(end) }
        return batch
    }

    static func opaque(batch: UInt64, index: Int) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(batch << indexBits | UInt64(index)))
    }

    /// Records results and completes every batch they finish.
    func record(_ results: [Result]) {
        var start = results.startIndex
        while start < results.endIndex {
            let id = results[start].batchID
            var end = start + 1
            while end < results.endIndex, results[end].batchID == id { end += 1 }
            if let batch = state.withLock({ $0.batches[id] }), batch.record(results[start..<end]) {
                _ = state.withLock { $0.batches.removeValue(forKey: id) }
            }
            start = end
        }
    }

    /// Fails every message still waiting, and every batch begun from now on (the producer
    /// was closed, or failed fatally: nothing queued will be delivered any more).
    func failAll(_ error: KafkaError) {
        let batches = state.withLock { state in
            state.end = state.end ?? error
            defer { state.batches = [:] }
            return Array(state.batches.values)
        }
        for batch in batches { _ = batch.fail(error) }
    }
}
