import HeraldModel
import HeraldPredicate

/// The query subscriptions of one bucket (container, database, record type, owner) and the
/// index over their predicates: postings by the hash of their probe and key (`PostingTable`,
/// `PostingHasher`), numeric ranges per field, and the residuals that no index serves.
/// Subscriptions live in slots so postings hold small integers; a freed slot is reused. A
/// record makes one lookup step per probe in use, and one walk of a string serves every
/// prefix (or suffix, or run) length in use.
///
/// A class so that matching reads it in place; `SubscriptionIndex` copies it before a
/// mutation when it is shared (copy-on-write), and only mutates it under exclusive access.
final class QueryIndex: @unchecked Sendable {
    private(set) var subscriptions: [IndexedSubscription?] = []
    /// How many slots hold a subscription.
    private(set) var count = 0
    private var freeSlots: [Int32] = []
    private let hasher: PostingHasher
    private var postings = PostingTable()
    /// How many postings use each probe (prefix/suffix/run probes per length).
    private var probeUse: [Probe: Int] = [:]
    /// The hash number of each probe group (prefix/suffix/run probes without their length), kept
    /// while the bucket lives so a number never changes meaning.
    private var numbers: [Probe: Int32] = [:]
    /// What a record is asked, by field (rebuilt when a probe comes into or goes out of use).
    private var lookups = RecordLookups()
    /// Range indexes by position (`RecordLookups.Field.rangeIndex`); one is kept, maybe
    /// empty, while the bucket lives.
    private var ranges: [RangeIndex] = []
    private var rangePositions: [String: Int] = [:]
    private var residual: Set<Int32> = []

    init(hasher: PostingHasher) {
        self.hasher = hasher
    }

    /// A copy that shares nothing mutable with this one.
    func copy() -> QueryIndex {
        let other = QueryIndex(hasher: hasher)
        other.subscriptions = subscriptions
        other.count = count
        other.freeSlots = freeSlots
        other.postings = postings
        other.probeUse = probeUse
        other.numbers = numbers
        other.lookups = lookups
        other.ranges = ranges
        other.rangePositions = rangePositions
        other.residual = residual
        return other
    }

    var isEmpty: Bool { count == 0 }

    /// The slot the next insertion takes: a subscription is made with it
    /// (`IndexedSubscription.slot`), so the bucket needs no map from keys to slots.
    var nextSlot: Int32 { freeSlots.last ?? Int32(subscriptions.count) }

    /// Files a subscription whose key the bucket does not hold (`SubscriptionIndex` removes
    /// the old version first), made with `nextSlot`, under `plan` (`nil`: a residual).
    func insert(_ subscription: IndexedSubscription, plan: IndexPlan?) {
        let slot = subscription.slot
        precondition(slot == nextSlot, "a subscription is inserted in the slot it was made for")
        if freeSlots.last == slot {
            freeSlots.removeLast()
            subscriptions[Int(slot)] = subscription
        } else {
            subscriptions.append(subscription)
        }
        count += 1
        guard let plan else {
            residual.insert(slot)
            return
        }
        for entry in plan.entries {
            switch entry {
            case .posting(let key):
                postings.insert(hash(key), slot: slot)
                use(key.probe, by: 1)
            case .range(let field, let lower, let upper):
                ranges[rangePosition(field)].insert(slot, lower: lower, upper: upper)
            }
        }
    }

    /// Removes a subscription filed under `plan` (the one it was inserted with); one the
    /// bucket does not hold does nothing.
    func remove(_ subscription: IndexedSubscription, plan: IndexPlan?) {
        let slot = subscription.slot
        guard subscriptions.indices.contains(Int(slot)), subscriptions[Int(slot)] === subscription else { return }
        subscriptions[Int(slot)] = nil
        count -= 1
        freeSlots.append(slot)
        guard let plan else {
            residual.remove(slot)
            return
        }
        for entry in plan.entries {
            switch entry {
            case .posting(let key):
                postings.remove(hash(key), slot: slot)
                use(key.probe, by: -1)
            case .range(let field, _, _):
                if let position = rangePositions[field] { ranges[position].remove(slot) }
            }
        }
    }

    /// The probe group a posting key is hashed under: prefix, suffix and run keys of every
    /// length share one (the key's own length tells them apart).
    private static func group(_ probe: Probe) -> Probe {
        guard probe.kind == .prefix || probe.kind == .suffix || probe.kind == .gram else { return probe }
        var group = probe
        group.length = 0
        return group
    }

    private func hash(_ key: PostingKey) -> UInt64 {
        let group = Self.group(key.probe)
        let number: Int32
        if let known = numbers[group] {
            number = known
        } else {
            number = Int32(numbers.count)
            numbers[group] = number
        }
        return hasher.hash(number, key.value, reversed: key.probe.kind == .suffix)
    }

    /// Counts a posting of `probe` in or out; the lookup steps change when a probe comes
    /// into use or goes out of it.
    private func use(_ probe: Probe, by delta: Int) {
        let count = (probeUse[probe] ?? 0) + delta
        probeUse[probe] = count <= 0 ? nil : count
        guard count <= 0 || (count == 1 && delta > 0) else { return }
        rebuildLookups()
    }

    /// The position of a field's range index, made when the field gets its first range.
    private func rangePosition(_ field: String) -> Int {
        if let position = rangePositions[field] { return position }
        rangePositions[field] = ranges.count
        ranges.append(RangeIndex())
        rebuildLookups()
        return ranges.count - 1
    }

    /// Every probe group in use with its lengths, grouped by field and sorted by folding
    /// within a field, as `RecordLookups` wants them.
    private func rebuildLookups() {
        var lengths: [Probe: [Int]] = [:]
        for probe in probeUse.keys { lengths[Self.group(probe), default: []].append(probe.length) }
        let steps = lengths.compactMap { group, lengths in
            numbers[group].map { (probe: group, number: $0, lengths: lengths.sorted()) }
        }.sorted { a, b in
            (a.probe.field ?? "", a.probe.options.rawValue, a.probe.kind, a.probe.length)
                < (b.probe.field ?? "", b.probe.options.rawValue, b.probe.kind, b.probe.length)
        }
        lookups = RecordLookups(steps: steps, rangeIndexes: rangePositions)
    }

    /// The slots of every subscription that may match a record with these fields (now or,
    /// when given, before the change), each once, in slot order.
    func candidates(_ fields: [String: FieldValue], previous: [String: FieldValue]?) -> [Int32] {
        var result: [Int32] = []
        // The bucket's parts read once into locals: a class's stored properties read inside
        // the loops (and the closures) would each cost an exclusivity check and a copy.
        let offer = RecordOffer(lookups: lookups, hasher: hasher, ranges: ranges), postings = postings
        offer.collect(fields, postings: postings, into: &result)
        if let previous { offer.collect(previous, postings: postings, into: &result) }
        result.append(contentsOf: residual)
        guard result.count > 1 else { return result }
        result.sort()
        var unique = 1
        for index in 1..<result.count where result[index] != result[unique - 1] {
            result[unique] = result[index]
            unique += 1
        }
        result.removeLast(result.count - unique)
        return result
    }

    /// Calls `body` with the subscription in each of `slots` (empty slots skipped) that
    /// passes `test`, in order. All of them are read and tested before `body` sees any:
    /// above a hundred thousand subscriptions each candidate is a cache miss (its slot,
    /// then its object), a fifth of matching a change when taken one after another between
    /// evaluations; read in one loop of independent loads, the misses overlap. The slots
    /// kept are noted in a temporary buffer (no array, no retain per candidate).
    func forEachSubscription(
        in slots: [Int32], where test: (IndexedSubscription) -> Bool, _ body: (IndexedSubscription) -> Void
    ) {
        subscriptions.withUnsafeBufferPointer { subscriptions in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: slots.count) { kept in
                var count = 0
                for slot in slots {
                    guard let candidate = subscriptions[Int(slot)], test(candidate) else { continue }
                    kept[count] = slot
                    count += 1
                }
                for index in 0..<count {
                    if let candidate = subscriptions[Int(kept[index])] { body(candidate) }
                }
            }
        }
    }

    /// Folds every range index into one run and clears the posting filter of removed keys;
    /// call after loading many subscriptions.
    func compact() {
        for position in ranges.indices { ranges[position].compact() }
        postings.rebuildFilter()
    }
}
