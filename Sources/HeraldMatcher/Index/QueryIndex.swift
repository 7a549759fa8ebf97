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
    /// One lookup a record makes in this bucket: a probe in use with its hash number; a
    /// prefix, suffix or run probe stands for every length in use of its field and folding.
    private struct Step {
        var probe: Probe
        var number: Int32
        /// Prefix/suffix/run lengths in use, ascending (one walk of the record's string reads them all).
        var lengths: [Int]
        /// The first step of its field (steps come grouped by field): look the field up here.
        var readsField = true
        /// The first prefix, suffix or run step of its field and folding: fold the field's strings here.
        var folds = true
    }

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
    private var steps: [Step] = []
    private var ranges: [String: RangeIndex] = [:]
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
        other.steps = steps
        other.ranges = ranges
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
                ranges[field, default: RangeIndex()].insert(slot, lower: lower, upper: upper)
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
                ranges[field]?.remove(slot)
                if ranges[field]?.isEmpty == true { ranges[field] = nil }
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
        var lengths: [Probe: [Int]] = [:]
        for probe in probeUse.keys { lengths[Self.group(probe), default: []].append(probe.length) }
        steps = lengths.compactMap { group, lengths in
            numbers[group].map { Step(probe: group, number: $0, lengths: lengths.sorted()) }
        }.sorted { a, b in
            (a.probe.field ?? "", a.probe.options.rawValue, a.probe.kind, a.probe.length)
                < (b.probe.field ?? "", b.probe.options.rawValue, b.probe.kind, b.probe.length)
        }
        var foldedBy: Probe?
        for index in steps.indices {
            let probe = steps[index].probe
            steps[index].readsField = index == 0 || steps[index - 1].probe.field != probe.field
            guard probe.kind == .prefix || probe.kind == .suffix || probe.kind == .gram else { continue }
            steps[index].folds = foldedBy?.field != probe.field || foldedBy?.options != probe.options
            foldedBy = probe
        }
    }

    /// The slots of every subscription that may match a record with these fields (now or,
    /// when given, before the change), each once, in slot order.
    func candidates(_ fields: [String: FieldValue], previous: [String: FieldValue]?) -> [Int32] {
        var result: [Int32] = []
        // The bucket's parts read once into locals: a class's stored properties read inside
        // the loops (and the closures) would each cost an exclusivity check and a copy.
        let steps = steps, postings = postings, hasher = hasher, ranges = ranges
        Self.collect(fields, steps: steps, postings: postings, hasher: hasher, ranges: ranges, into: &result)
        if let previous {
            Self.collect(previous, steps: steps, postings: postings, hasher: hasher, ranges: ranges, into: &result)
        }
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

    /// Appends the candidates of a record's fields: first every posting hash the record
    /// offers (no lookups yet, no closure holding the table), then one pass looking them all
    /// up (`PostingTable.append(_:to:)`), then the range stabs.
    private static func collect(
        _ fields: [String: FieldValue], steps: [Step], postings: PostingTable, hasher: PostingHasher,
        ranges: [String: RangeIndex], into result: inout [Int32]
    ) {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(64)
        offeredHashes(fields, steps: steps, hasher: hasher, into: &hashes)
        postings.append(hashes, to: &result)
        for (field, index) in ranges {
            guard let value = fields[field] else { continue }
            IndexKey.forEachNumber(of: value) { index.stab($0, into: &result) }
        }
    }

    /// The posting hash of every key the record offers to the bucket's steps. Steps come
    /// grouped by field, then folding (`Step.readsField`, `Step.folds`): each field is looked
    /// up once and its strings folded once per folding.
    private static func offeredHashes(
        _ fields: [String: FieldValue], steps: [Step], hasher: PostingHasher, into hashes: inout [UInt64]
    ) {
        var value: FieldValue?
        // The field's value when it is one `SimpleText` string: its affixes and runs are
        // hashed from its bytes, folded on the way (ASCII folds to itself, lower-cased under
        // `[c]`: `Comparison.Options.fold`), without making folded strings.
        var simple: String?
        var folded: [String] = []
        for step in steps {
            let probe = step.probe
            guard let field = probe.field else {
                // An all-fields token search reads every STRING and STRING_LIST field.
                for value in fields.values {
                    RecordKeys.forEachTokenHash(of: value, number: step.number, hasher: hasher) { hashes.append($0) }
                }
                continue
            }
            if step.readsField {
                value = fields[field]
                simple = nil
                if case .string(let text)? = value, SimpleText.isSimple(text) { simple = text }
            }
            guard let value else { continue }
            switch probe.kind {
            case .prefix, .suffix, .gram:
                if let simple {
                    let lowercasing = probe.options.contains(.caseInsensitive)
                    if probe.kind == .gram {
                        hasher.forEachGram(step.number, ofSimple: simple, lengths: step.lengths, lowercasing: lowercasing) { hashes.append($0) }
                    } else {
                        hasher.forEachAffix(
                            step.number, ofSimple: simple, lengths: step.lengths, reversed: probe.kind == .suffix, lowercasing: lowercasing
                        ) { hashes.append($0) }
                    }
                    continue
                }
                if step.folds {
                    folded.removeAll(keepingCapacity: true)
                    IndexKey.forEachString(of: value, folding: probe.options) { folded.append($0) }
                }
                for text in folded {
                    if probe.kind == .gram {
                        hasher.forEachGram(step.number, of: text, lengths: step.lengths) { hashes.append($0) }
                    } else {
                        hasher.forEachAffix(step.number, of: text, lengths: step.lengths, reversed: probe.kind == .suffix) {
                            hashes.append($0)
                        }
                    }
                }
            case .token:
                RecordKeys.forEachTokenHash(of: value, number: step.number, hasher: hasher) { hashes.append($0) }
            case .value, .cell:
                RecordKeys.forEach(probe, of: value) { hashes.append(hasher.hash(step.number, $0)) }
            }
        }
    }

    /// Folds every range index into one run and clears the posting filter of removed keys;
    /// call after loading many subscriptions.
    func compact() {
        for field in Array(ranges.keys) { ranges[field]?.compact() }
        postings.rebuildFilter()
    }
}
