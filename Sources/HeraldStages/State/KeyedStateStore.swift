import Foundation
import HeraldKafka
import HeraldModel
import Synchronization

/// A value kept per key (a user) by a stateful stage, with its changelog key.
public protocol KeyedState: Codable, Sendable {
    /// The key the state is stored under in the changelog: its owner.
    var stateKey: String { get }

    /// The state as its changelog value. Default: `WireCodec`'s fast writer for a
    /// `WireEncodable` state (chosen when the conformance is declared, so the per-user loop
    /// of `changelogMessages` makes no dynamic cast), else its Codable encoding.
    func changelogValue(_ codec: WireCodec, reusing writer: inout JSONWriter) throws(ModelError) -> Data
}

/// The state per key of the partitions a stateful stage owns — the one machinery of the
/// compose and schedule stages.
///
/// - A batch reads the live states (`batch()`), stages what it changes, and writes those
///   states to the changelog with its outputs (`changelogMessages`), on the partition of
///   the input that changed them.
/// - Once the runner reports the batch delivered, `commit()` makes the oldest batch's
///   changes live. A pipelined runner processes the next batches before the earlier ones
///   are delivered: each batch's changes wait in order, and a batch reads the live states
///   with every waiting change on top (what the batches before it left). A batch whose
///   delivery failed is undone by the runner with `revoke` (which drops everything waiting)
///   and `restore`, then processed again.
/// - On assignment `restore` reads the partitions' changelog; on revocation `revoke`
///   drops their keys (their new owner restores them).
public final class KeyedStateStore<State: KeyedState>: Sendable {
    /// A state and the partition it lives on.
    public struct Entry: Sendable {
        public var state: State
        public var partition: Int32
    }

    private struct Storage {
        /// The live states by key: handed to each batch as is (copy on write, no per-batch copy).
        var live: [String: State] = [:]
        /// The partition each live state is on.
        var partitions: [String: Int32] = [:]
        /// What batches processed but not yet delivered changed, oldest first.
        var waiting: [[String: Entry]] = []

        mutating func makeLive(_ entries: [String: Entry]) {
            for (key, entry) in entries {
                live[key] = entry.state
                partitions[key] = entry.partition
            }
        }
    }

    /// The changelog topic.
    public let topic: String
    private let changelog: ChangelogReader
    private let storage = Mutex(Storage())

    public init(topic: String, changelog: ChangelogReader) {
        self.topic = topic
        self.changelog = changelog
    }

    /// How many keys this instance holds.
    public var count: Int { storage.withLock { $0.live.count } }

    /// The partition a key's live state is on.
    public func partition(of key: String) -> Int32? { storage.withLock { $0.partitions[key] } }

    /// The live states with what undelivered batches changed on top, for one batch or tick to change.
    public func batch() -> StagedStates<State> {
        let (live, waiting) = storage.withLock { ($0.live, $0.waiting) }
        guard waiting.count > 1 else { return StagedStates(live: live, waiting: waiting.first ?? [:]) }
        // Only the waiting changes are merged (a few batches' keys), never the live states.
        var merged: [String: Entry] = [:]
        for changes in waiting { merged.merge(changes) { _, newer in newer } }
        return StagedStates(live: live, waiting: merged)
    }

    /// The changelog records of what a batch changed, in key order (stable output).
    /// - Throws: `PipelineError` when a state does not encode: never skipped (the key
    ///   would be restored stale after a restart); the batch is retried, loudly.
    public func changelogMessages(_ batch: StagedStates<State>) throws(PipelineError) -> [OutgoingMessage] {
        let codec = WireCodec()
        var writer = JSONWriter(capacity: 4096)
        var messages: [OutgoingMessage] = []
        for (key, entry) in batch.staged.sorted(by: { $0.key < $1.key }) {
            let value: Data
            do { value = try entry.state.changelogValue(codec, reusing: &writer) } catch {
                throw PipelineError(code: .restore, reason: "the state of \(key) does not encode: \(error)", location: topic)
            }
            messages.append(OutgoingMessage(topic: topic, partition: entry.partition, key: key, value: value))
        }
        return messages
    }

    /// Keeps a batch's changes aside until its outputs are delivered, after those of the
    /// batches processed before it.
    public func stage(_ batch: StagedStates<State>) {
        storage.withLock { $0.waiting.append(batch.staged) }
    }

    /// The changes of the oldest undelivered batch become live (it was delivered); returns them.
    @discardableResult
    public func commit() -> [String: Entry] {
        storage.withLock { storage in
            guard !storage.waiting.isEmpty else { return [:] }
            let staged = storage.waiting.removeFirst()
            storage.makeLive(staged)
            return staged
        }
    }

    /// Reads the changelog of newly assigned partitions; the states become live. Returns them.
    /// - Throws: `PipelineError.corruptChangelog` or `changelogIncomplete`: the partitions
    ///   are not processed from a wrong state (the runner retries).
    @discardableResult
    public func restore(_ partitions: [TopicPartition]) async throws -> [String: Entry] {
        let numbers = Set(partitions.map(\.partition)).sorted()
        let restored = try await changelog.readStates(State.self, topic: topic, partitions: numbers, owner: \.stateKey)
            .mapValues { Entry(state: $0.state, partition: $0.partition) }
        storage.withLock { $0.makeLive(restored) }
        return restored
    }

    /// Makes `entries` live as they are: states a stage derived while restoring (from
    /// another compacted input), outside any batch.
    public func makeLive(_ entries: [String: Entry]) {
        storage.withLock { $0.makeLive(entries) }
    }

    /// Drops the keys of partitions taken away, and what every undelivered batch changed.
    /// Returns the keys dropped.
    @discardableResult
    public func revoke(_ partitions: [TopicPartition]) -> [String] {
        let numbers = Set(partitions.map(\.partition))
        return storage.withLock { storage in
            storage.waiting = []
            let dropped = storage.partitions.filter { numbers.contains($0.value) }.map(\.key)
            for key in dropped {
                storage.live[key] = nil
                storage.partitions[key] = nil
            }
            return dropped
        }
    }
}

/// The states one batch or tick works on: the live ones as they were, what the batches
/// before it that are not yet delivered changed, and what it changed.
public struct StagedStates<State: KeyedState>: Sendable {
    private let live: [String: State]
    private let waiting: [String: KeyedStateStore<State>.Entry]
    /// What the batch changed, by key, with the partition each goes to.
    public private(set) var staged: [String: KeyedStateStore<State>.Entry] = [:]

    init(live: [String: State], waiting: [String: KeyedStateStore<State>.Entry]) {
        self.live = live
        self.waiting = waiting
    }

    /// A key's state as the batch left it so far, if it has one.
    public subscript(key: String) -> State? { staged[key]?.state ?? waiting[key]?.state ?? live[key] }

    /// Whether the batch changed anything.
    public var isEmpty: Bool { staged.isEmpty }

    /// Records a key's new state, to go to the changelog on `partition`.
    public mutating func stage(_ state: State, on partition: Int32) {
        staged[state.stateKey] = KeyedStateStore<State>.Entry(state: state, partition: partition)
    }
}
