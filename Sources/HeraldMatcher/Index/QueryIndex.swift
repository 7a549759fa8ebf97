import HeraldModel
import HeraldPredicate

/// The query subscriptions of one bucket (container, database, record type, owner) and the
/// index over their predicates: postings per probe key, numeric ranges per field, and the
/// residuals that no index serves. Subscriptions live in slots so posting lists hold small
/// integers; a freed slot is reused. Postings are keyed by a small probe number rather than
/// the probe itself, so a lookup hashes little more than the value.
///
/// A class so that matching reads it in place; `SubscriptionIndex` copies it before a
/// mutation when it is shared (copy-on-write), and only mutates it under exclusive access.
final class QueryIndex: @unchecked Sendable {
    private struct Posting: Hashable {
        var probe: Int32
        var value: IndexKey
    }

    private struct ProbeUse {
        var number: Int32
        var count: Int
    }

    private(set) var subscriptions: [IndexedSubscription?] = []
    private var slotOfKey: [String: Int32] = [:]
    private var freeSlots: [Int32] = []
    private var postings: [Posting: [Int32]] = [:]
    /// Probes in use with their number and how many postings use them; the same as a list for lookups.
    private var probeUse: [Probe: ProbeUse] = [:]
    private var probes: [(probe: Probe, number: Int32)] = []
    private var nextProbe: Int32 = 0
    private var ranges: [String: RangeIndex] = [:]
    private var residual: Set<Int32> = []

    init() {}

    /// A copy that shares nothing mutable with this one.
    func copy() -> QueryIndex {
        let other = QueryIndex()
        other.subscriptions = subscriptions
        other.slotOfKey = slotOfKey
        other.freeSlots = freeSlots
        other.postings = postings
        other.probeUse = probeUse
        other.probes = probes
        other.nextProbe = nextProbe
        other.ranges = ranges
        other.residual = residual
        return other
    }

    var isEmpty: Bool { slotOfKey.isEmpty }
    var count: Int { slotOfKey.count }

    func insert(_ subscription: IndexedSubscription) {
        remove(key: subscription.key)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            subscriptions[Int(free)] = subscription
        } else {
            slot = Int32(subscriptions.count)
            subscriptions.append(subscription)
        }
        slotOfKey[subscription.key] = slot
        guard let plan = subscription.plan else {
            residual.insert(slot)
            return
        }
        for entry in plan.entries {
            switch entry {
            case .posting(let key):
                postings[Posting(probe: use(key.probe, by: 1), value: key.value), default: []].append(slot)
            case .range(let field, let lower, let upper):
                ranges[field, default: RangeIndex()].insert(slot, lower: lower, upper: upper)
            }
        }
    }

    func remove(key: String) {
        guard let slot = slotOfKey.removeValue(forKey: key), let subscription = subscriptions[Int(slot)] else { return }
        subscriptions[Int(slot)] = nil
        freeSlots.append(slot)
        guard let plan = subscription.plan else {
            residual.remove(slot)
            return
        }
        for entry in plan.entries {
            switch entry {
            case .posting(let key):
                let posting = Posting(probe: use(key.probe, by: -1), value: key.value)
                if var list = postings.removeValue(forKey: posting) {
                    if let index = list.firstIndex(of: slot) {
                        list.swapAt(index, list.count - 1)
                        list.removeLast()
                    }
                    if !list.isEmpty { postings[posting] = list }
                }
            case .range(let field, _, _):
                ranges[field]?.remove(slot)
                if ranges[field]?.isEmpty == true { ranges[field] = nil }
            }
        }
    }

    /// Counts a posting of `probe` in or out; returns the probe's number.
    private func use(_ probe: Probe, by delta: Int) -> Int32 {
        var entry = probeUse[probe] ?? ProbeUse(number: nextProbe, count: 0)
        if entry.count == 0 { nextProbe += 1 }
        entry.count += delta
        probeUse[probe] = entry.count == 0 ? nil : entry
        if entry.count == 0 || (entry.count == 1 && delta > 0) {
            probes = probeUse.map { ($0.key, $0.value.number) }.sorted { a, b in
                (a.probe.field ?? "", a.probe.options.rawValue, a.probe.kind, a.probe.length)
                    < (b.probe.field ?? "", b.probe.options.rawValue, b.probe.kind, b.probe.length)
            }
        }
        return entry.number
    }

    /// The slots of every subscription that may match a record with these fields (now or,
    /// when given, before the change), each once, in slot order.
    func candidates(_ fields: [String: FieldValue], previous: [String: FieldValue]?) -> [Int32] {
        var result: [Int32] = []
        collect(fields, into: &result)
        if let previous { collect(previous, into: &result) }
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

    private func collect(_ fields: [String: FieldValue], into result: inout [Int32]) {
        // Probes come grouped by (field, options): fold each field's strings once per group.
        var foldedFor: (field: String, options: Comparison.Options)?
        var folded: [String] = []
        for (probe, number) in probes {
            let lookUp = { (key: IndexKey) in
                if let slots = self.postings[Posting(probe: number, value: key)] { result.append(contentsOf: slots) }
            }
            switch probe.kind {
            case .prefix, .suffix, .trigram:
                guard let field = probe.field, let value = fields[field] else { continue }
                if foldedFor?.field != field || foldedFor?.options != probe.options {
                    folded.removeAll(keepingCapacity: true)
                    IndexKey.forEachString(of: value, folding: probe.options) { folded.append($0) }
                    foldedFor = (field, probe.options)
                }
                for text in folded { RecordKeys.forEachKey(probe, ofFolded: text, lookUp) }
            case .value, .token, .cell:
                RecordKeys.forEach(probe, of: fields, lookUp)
            }
        }
        for (field, index) in ranges {
            guard let value = fields[field] else { continue }
            IndexKey.forEachNumber(of: value) { index.stab($0, into: &result) }
        }
    }

    /// Folds every range index into one run; call after loading many subscriptions.
    func compact() {
        for field in Array(ranges.keys) { ranges[field]?.compact() }
    }
}
