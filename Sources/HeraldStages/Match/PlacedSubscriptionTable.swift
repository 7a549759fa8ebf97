import Foundation
import HeraldKafka
import HeraldMatcher
import HeraldModel
import ServiceLifecycle
import Synchronization

/// The match stage's subscriptions: only those placed on the partitions its instance holds
/// (docs/ARCHITECTURE.md §9), one `SubscriptionIndex` per partition, so that K instances
/// hold about 1/K of them and a change fanned out to several partitions is matched against
/// each partition's subscriptions once.
///
/// The match processor holds and releases partitions as the group assigns and revokes them
/// (`hold`, `release`) and waits until they are loaded; the `PlacedSubscriptionLoader` reads
/// the held partitions of the `subscriptions` topic into it. Each hold opens a new *epoch* of
/// the partition: records read for an older epoch (before a release and a new hold) are
/// ignored, and the loader reads the partition again from its beginning.
///
/// Records found on a partition other than their placement (written before placement, or by
/// a tool that does not place) are not indexed there but kept aside (`takeMisplaced`) for the
/// loader to re-place; when this instance holds their placement too, they are indexed there
/// meanwhile (a record read on the placement partition itself wins over such a copy, and a
/// tombstone on the copy's partition removes only the copy). Records under the keys used before per-user IDs are not indexed either
/// (`herald subscriptions migrate` re-keys and places them); they are counted.
public final class PlacedSubscriptionTable: Sendable {
    /// A live record on a partition other than its placement.
    public struct Misplaced: Sendable, Equatable {
        public var key: String
        public var value: Data
        /// Where it was read.
        public var partition: Int32
        /// Where it belongs (`SubscriptionPlacement.partition(of:)`).
        public var placement: Int32
    }

    private struct Shard: Sendable {
        var epoch: UInt64
        var index: SubscriptionIndex
        var loaded = false
        var misplaced: [String: Misplaced] = [:]
        /// Keys of `misplaced` also indexed in their placement's shard, held here too: where.
        var copiedTo: [String: Int32] = [:]
        /// Keys this shard's index holds from a misplaced copy read on another partition.
        var copies: Set<String> = []
        var legacyKeys: Set<String> = []
    }

    private struct State: Sendable {
        var shards: [Int32: Shard] = [:]
        /// Keys retired (`remove`) from a misplaced copy, until the loader's next `takeRetired`.
        var retired: Set<String> = []
        var nextEpoch: UInt64 = 1

        /// Whether `partition` is held in `epoch`. Reads the shard in place (`inout`): read
        /// through the dictionary's getter, the whole shard is copied (a retain and a
        /// release per collection in it) for each record filed.
        mutating func holds(_ partition: Int32, in epoch: UInt64) -> Bool {
            Self.epoch(of: &shards[partition]) == epoch
        }

        private static func epoch(of shard: inout Shard?) -> UInt64? { shard?.epoch }
    }

    public let placement: SubscriptionPlacement
    private let rules: SubscriptionRules
    private let state = Mutex(State())

    /// An empty table for topics of `partitions` partitions.
    public init(partitions: Int32, rules: SubscriptionRules = SubscriptionRules()) {
        self.placement = SubscriptionPlacement(partitions: partitions)
        self.rules = rules
    }

    /// Starts holding these partitions (those already held stay as they are): empty and not
    /// loaded until the loader read them.
    public func hold(_ partitions: some Sequence<Int32>) {
        state.withLock { state in
            for partition in partitions where state.shards[partition] == nil {
                state.shards[partition] = Shard(epoch: state.nextEpoch, index: SubscriptionIndex(rules: rules))
                state.nextEpoch += 1
            }
        }
    }

    /// Drops the subscriptions of these partitions (their new owner loads them).
    public func release(_ partitions: some Sequence<Int32>) {
        state.withLock { state in
            for partition in partitions { state.shards[partition] = nil }
        }
    }

    /// The held partitions with their epoch.
    public var heldPartitions: [Int32: UInt64] { state.withLock { $0.shards.mapValues(\.epoch) } }

    /// Applies one record read from `partition` during `epoch` (ignored if that epoch is over).
    /// - Throws: `Rejection.Reason` for a record that does not decode, is invalid, or is
    ///   stored under a key that is neither its own nor the one before per-user IDs.
    public func apply(partition: Int32, epoch: UInt64, key: String?, value: Data?) throws(Rejection.Reason) {
        try apply(prepare(key: key, value: value), partition: partition, epoch: epoch)
    }

    /// Decodes and prepares a record for `apply(_:partition:epoch:)` without the table's lock (any thread).
    public func prepare(key: String?, value: Data?) -> SubscriptionRecord {
        SubscriptionRecord(key: key, value: value, rules: rules)
    }

    /// Applies a record prepared by `prepare(key:value:)`, as `apply(partition:epoch:key:value:)` does.
    /// - Throws: `Rejection.Reason` as `apply(partition:epoch:key:value:)` does.
    public func apply(_ record: SubscriptionRecord, partition: Int32, epoch: UInt64) throws(Rejection.Reason) {
        let key = record.key
        guard let value = record.value, let keys = try record.decodedKeys() else {
            guard let key else { throw .invalid("a tombstone without a key") }
            state.withLock { state in
                guard state.shards[partition]?.epoch == epoch else { return }
                state.shards[partition]?.index.remove(key: key)
                state.shards[partition]?.copies.remove(key)
                state.shards[partition]?.misplaced[key] = nil
                state.shards[partition]?.legacyKeys.remove(key)
                if let target = state.shards[partition]?.copiedTo.removeValue(forKey: key),
                   state.shards[target]?.copies.remove(key) != nil {
                    state.shards[target]?.index.remove(key: key)
                }
            }
            return
        }
        let (identity, placementKey) = keys
        if let key, key != identity {
            let legacyKey = try record.subscription()?.legacyPartitionKey
            guard key == legacyKey else {
                throw .invalid("key '\(key)' is not the subscription's key '\(identity)' (nor its pre-per-user key '\(legacyKey ?? "")')")
            }
            state.withLock { state in
                guard state.shards[partition]?.epoch == epoch else { return }
                state.shards[partition]?.legacyKeys.insert(key)
            }
            return
        }
        let target = placement.partition(placementKey: placementKey)
        do {
            try state.withLock { (state: inout State) throws(MatcherError) in
                guard state.holds(partition, in: epoch) else { return }
                guard target == partition else {
                    state.shards[partition]?.misplaced[identity] = Misplaced(
                        key: identity, value: value, partition: partition, placement: target)
                    // Its placement is held here too: index it there at once, until re-placed,
                    // unless a record read on the placement itself is there (it wins).
                    guard let placed = state.shards[target],
                          placed.copies.contains(identity) || placed.index.subscription(forKey: identity) == nil else { return }
                    try state.shards[target]?.index.upsert(record.prepared(rules: rules))
                    state.shards[target]?.copies.insert(identity)
                    state.shards[partition]?.copiedTo[identity] = target
                    return
                }
                try state.shards[partition]?.index.upsert(record.prepared(rules: rules))
                state.shards[partition]?.copies.remove(identity)
            }
        } catch {
            throw Rejection.Reason(code: error.code.rawValue, error.reason)
        }
    }

    /// Marks `partition` loaded for `epoch` (compacting its index).
    public func markLoaded(partition: Int32, epoch: UInt64) {
        state.withLock { state in
            guard state.shards[partition]?.epoch == epoch else { return }
            state.shards[partition]?.index.compact()
            state.shards[partition]?.loaded = true
        }
    }

    /// Whether `partition` is held and loaded.
    public func isLoaded(_ partition: Int32) -> Bool { state.withLock { $0.shards[partition]?.loaded ?? false } }

    /// Whether every held partition is loaded.
    public var isReady: Bool { state.withLock { $0.shards.values.allSatisfy(\.loaded) } }

    /// Whether each of these partitions is loaded or no longer held.
    public func areLoaded(_ partitions: some Sequence<Int32>) -> Bool {
        state.withLock { state in partitions.allSatisfy { state.shards[$0]?.loaded ?? true } }
    }

    /// Returns once each of these partitions is loaded or no longer held.
    /// - Throws: `CancellationError` when the task is cancelled or the service group shuts
    ///   down first (the loader may have stopped: a batch must not be matched half loaded).
    public func waitUntilLoaded(_ partitions: some Sequence<Int32>) async throws {
        // Checked every 20 ms rather than parked on a continuation, which could not also
        // notice a graceful shutdown; a load takes far longer than the check.
        while !areLoaded(partitions) {
            if Task.isCancelled || Task.isShuttingDownGracefully { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Every subscription placed on `partition` that `change` fires (none if not held).
    public func matches(for change: RecordChange, on partition: Int32) -> [Match] {
        state.withLock { $0.shards[partition]?.index.matches(for: change) ?? [] }
    }

    /// Removes a subscription of `partition` by identity (a fires-once retirement, ahead of its tombstone).
    /// - Returns: the partitions holding the misplaced copy it was indexed from, which must be
    ///   tombstoned too: the copy is no longer re-placed (and one the loader is re-placing right
    ///   now is tombstoned again by it, `takeRetired`).
    @discardableResult
    public func remove(key: String, on partition: Int32) -> [Int32] {
        state.withLock { state in
            state.shards[partition]?.index.remove(key: key)
            guard state.shards[partition]?.copies.remove(key) != nil else { return [] }
            state.retired.insert(key)
            var sources: [Int32] = []
            for (number, shard) in state.shards where shard.copiedTo[key] == partition {
                state.shards[number]?.copiedTo[key] = nil
                state.shards[number]?.misplaced[key] = nil
                sources.append(number)
            }
            return sources.sorted()
        }
    }

    /// Which of `keys` (just re-placed) were retired from a copy since the last call; forgets
    /// every retirement (a re-placement taken before one is the only one that can race it).
    public func takeRetired(among keys: some Sequence<String>) -> Set<String> {
        state.withLock { state in
            defer { state.retired = [] }
            return state.retired.intersection(keys)
        }
    }

    /// Takes the misplaced records of `partition` seen during `epoch` (each is handed out once).
    public func takeMisplaced(partition: Int32, epoch: UInt64) -> [Misplaced] {
        state.withLock { state in
            guard state.shards[partition]?.epoch == epoch, let misplaced = state.shards[partition]?.misplaced,
                  !misplaced.isEmpty else { return [] }
            state.shards[partition]?.misplaced = [:]
            return misplaced.values.sorted { $0.key < $1.key }
        }
    }

    /// How many subscriptions the instance holds.
    public var count: Int { state.withLock { $0.shards.values.reduce(0) { $0 + $1.index.count } } }

    /// How many subscriptions each held partition has.
    public var counts: [Int32: Int] { state.withLock { $0.shards.mapValues(\.index.count) } }

    /// Records under pre-per-user keys on the held partitions, not loaded (see the type's notes).
    public var legacyKeyCount: Int { state.withLock { $0.shards.values.reduce(0) { $0 + $1.legacyKeys.count } } }

    /// Reads the index of `partition` under the table's lock (`nil`: not held).
    public func withIndex<T>(on partition: Int32, _ body: (SubscriptionIndex) -> T) -> T? {
        state.withLock { (state: inout State) -> T? in
            guard let shard = state.shards[partition] else { return nil }
            return body(shard.index)
        }
    }
}
