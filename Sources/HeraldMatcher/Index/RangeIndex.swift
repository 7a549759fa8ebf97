/// Numeric intervals of one field, answering "which intervals contain v" in time
/// proportional to the answer (a stabbing query), with cheap insertions and removals.
///
/// Intervals live in a few immutable runs (`IntervalRun`) of doubling sizes, like a binary
/// counter: an insertion makes a run of one and merges it with the runs of the same size
/// (amortized O(log² n)); a removal marks the entry's serial stale, and merges drop stale
/// entries (everything is rebuilt when stale entries outnumber live ones). A query asks each
/// run (O(log n) runs, each O(log n + answers)).
struct RangeIndex: Sendable {
    private var live: [Int32: IntervalRun.Entry] = [:]
    /// `runs[i]` holds at most 2^i entries (or is empty).
    private var runs: [IntervalRun?] = []
    private var stale: Set<UInt32> = []
    private var nextSerial: UInt32 = 0

    var isEmpty: Bool { live.isEmpty }

    mutating func insert(_ slot: Int32, lower: Double, upper: Double) {
        remove(slot)
        let entry = IntervalRun.Entry(lower: lower, upper: upper, slot: slot, serial: nextSerial)
        nextSerial &+= 1
        live[slot] = entry
        var carry = [entry]
        var level = 0
        while level < runs.count, let run = runs[level] {
            carry += run.entries.filter { !isStale($0) }
            runs[level] = nil
            level += 1
        }
        let target = max(level, Self.level(for: carry.count))
        while runs.count <= target { runs.append(nil) }
        if let occupied = runs[target] {
            carry += occupied.entries.filter { !isStale($0) }
        }
        runs[target] = IntervalRun(carry)
    }

    mutating func remove(_ slot: Int32) {
        guard let entry = live.removeValue(forKey: slot) else { return }
        stale.insert(entry.serial)
        if stale.count > max(64, live.count) { compact() }
    }

    /// Appends the slot of every interval containing `value`.
    func stab(_ value: Double, into result: inout [Int32]) {
        for case let run? in runs {
            run.stab(value, skipping: stale, into: &result)
        }
    }

    private func isStale(_ entry: IntervalRun.Entry) -> Bool {
        !stale.isEmpty && stale.contains(entry.serial)
    }

    private static func level(for count: Int) -> Int {
        var level = 0
        while (1 << level) < count { level += 1 }
        return level
    }

    /// One run of every live interval.
    mutating func compact() {
        let entries = Array(live.values)
        stale.removeAll()
        runs = Array(repeating: nil, count: Self.level(for: entries.count) + 1)
        if !entries.isEmpty { runs[Self.level(for: entries.count)] = IntervalRun(entries) }
    }
}

/// An immutable set of intervals. Those of finite width are grouped by width (`WidthClass`:
/// widths within a factor of two), so the intervals containing v are found by one binary
/// search and a scan of neighbouring entries per class — contiguous memory, where a walk of
/// a max-of-upper-bounds tree touched a few dozen scattered nodes per stab (at a million
/// subscriptions a tenth of matching a change, mostly cache misses). Intervals with an
/// unbounded side (`price > 5`) stay in such a tree (`IntervalTree`).
struct IntervalRun: Sendable {
    struct Entry: Sendable {
        var lower: Double
        var upper: Double
        var slot: Int32
        var serial: UInt32
    }

    private let classes: [WidthClass]
    private let unbounded: IntervalTree

    init(_ unsorted: [Entry]) {
        var byClass: [Int: [Entry]] = [:]
        var wide: [Entry] = []
        for entry in unsorted {
            let width = entry.upper - entry.lower
            if width.isFinite { byClass[WidthClass.number(width), default: []].append(entry) } else { wide.append(entry) }
        }
        classes = byClass.keys.sorted().map { WidthClass(byClass[$0]!) }
        unbounded = IntervalTree(wide)
    }

    /// Every interval (merges read them).
    var entries: [Entry] { classes.flatMap(\.entries) + unbounded.entries }

    /// Appends the slot of every interval containing `value` whose serial is not in `stale`.
    func stab(_ value: Double, skipping stale: Set<UInt32>, into result: inout [Int32]) {
        if value.isFinite {
            for widthClass in classes { widthClass.stab(value, skipping: stale, into: &result) }
        }
        unbounded.stab(value, skipping: stale, into: &result)
    }
}

/// Intervals of finite width within a factor of two of each other, sorted by lower bound:
/// those containing v have their lower bound in [v − widest, v], one search away.
///
/// The search starts from a directory of the lower bounds (`starts`: the first entry of each
/// cell of equal width over their span, about two entries a cell), so it reads one cell's
/// few bounds instead of a binary search over all of them — at a million subscriptions ~17
/// dependent loads, most of them cache misses, once per numeric field per change.
private struct WidthClass: Sendable {
    let entries: [IntervalRun.Entry]
    private let lowers: [Double]
    private let widest: Double
    /// The lowest lower bound and the directory's cell width (0: no directory).
    private let origin: Double
    private let cell: Double
    /// `starts[c]`: the first entry whose lower bound is ≥ origin + c × cell; one more than
    /// there are cells (the last is `entries.count`).
    private let starts: [Int32]

    /// The class of a finite width: its binary exponent (widths up to 1 share class 0).
    static func number(_ width: Double) -> Int {
        width <= 1 ? 0 : Int(width.exponent) + 1
    }

    init(_ unsorted: [IntervalRun.Entry]) {
        entries = unsorted.sorted { $0.lower < $1.lower }
        lowers = entries.map(\.lower)
        widest = entries.reduce(0) { max($0, $1.upper - $1.lower) }
        (origin, cell, starts) = Self.directory(lowers)
    }

    /// The directory of sorted lower bounds: cells of equal width over their span, about
    /// two bounds a cell on average (none for fewer than 16 bounds or an infinite span).
    private static func directory(_ lowers: [Double]) -> (origin: Double, cell: Double, starts: [Int32]) {
        guard lowers.count >= 16, let first = lowers.first, let last = lowers.last, last > first else { return (0, 0, []) }
        let cells = lowers.count / 2
        let cell = (last - first) / Double(cells)
        // Cells far wider than the bounds' rounding, so a cell computed in floating point is
        // off by less than one (`searchRange` widens by one each way).
        guard cell.isFinite, cell > 16 * max(abs(first), abs(last)).ulp else { return (0, 0, []) }
        var starts = [Int32](repeating: Int32(lowers.count), count: cells + 1)
        var index = 0
        for number in 0...cells {
            let bound = first + Double(number) * cell
            while index < lowers.count, lowers[index] < bound { index += 1 }
            starts[number] = Int32(index)
        }
        return (first, cell, starts)
    }

    /// The range of entries the first lower bound ≥ `from` lies in: its cell of the
    /// directory widened by one cell each way (the cell is computed in floating point).
    private func searchRange(_ from: Double) -> Range<Int> {
        guard cell > 0 else { return 0..<lowers.count }
        guard from > origin else { return 0..<0 }
        let cells = starts.count - 1
        let position = (from - origin) / cell
        guard position < Double(cells) else { return Int(starts[cells - 1])..<lowers.count }
        let number = Int(position)
        return Int(starts[max(0, number - 1)])..<Int(starts[min(cells, number + 2)])
    }

    /// `value` must be finite.
    func stab(_ value: Double, skipping stale: Set<UInt32>, into result: inout [Int32]) {
        // The lowest lower bound that can reach `value`, a few units in the last place lower
        // than computed: the widths and this difference are rounded, and a scan that starts
        // early only reads entries that the exact test below rejects.
        let reach = value - widest
        let from = reach - (abs(reach) + widest) * 0x1p-50
        let checksStale = !stale.isEmpty
        let range = searchRange(from)
        lowers.withUnsafeBufferPointer { lowers in
            var low = range.lowerBound, high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if lowers[middle] < from { low = middle + 1 } else { high = middle }
            }
            entries.withUnsafeBufferPointer { entries in
                var index = low
                while index < lowers.count, lowers[index] <= value {
                    let entry = entries[index]
                    if entry.upper >= value, !checksStale || !stale.contains(entry.serial) { result.append(entry.slot) }
                    index += 1
                }
            }
        }
    }
}

/// An immutable set of intervals sorted by lower bound, with a max-of-upper-bounds tree:
/// the intervals containing v are among those with lower ≤ v (a binary search), and the tree
/// skips every stretch whose upper bounds are all below v.
private struct IntervalTree: Sendable {
    let entries: [IntervalRun.Entry]
    private let lowers: [Double]
    /// Max upper bound per node of a complete binary tree over `entries` (leaves at `leafBase`).
    private let maxUpper: [Double]
    private let leafBase: Int

    init(_ unsorted: [IntervalRun.Entry]) {
        entries = unsorted.sorted { $0.lower < $1.lower }
        lowers = entries.map(\.lower)
        var base = 1
        while base < entries.count { base *= 2 }
        leafBase = base
        var tree = Array(repeating: -Double.infinity, count: 2 * base)
        for (index, entry) in entries.enumerated() { tree[base + index] = entry.upper }
        var node = base - 1
        while node >= 1 {
            tree[node] = max(tree[2 * node], tree[2 * node + 1])
            node -= 1
        }
        maxUpper = tree
    }

    /// Appends the slot of every interval containing `value` whose serial is not in `stale`.
    ///
    /// Walks the tree without recursion or closures (an explicit stack of nodes in a stack
    /// allocation): this runs once per numeric field per change, and the recursive walk
    /// with a closure per answer was an eighth of matching a change.
    func stab(_ value: Double, skipping stale: Set<UInt32>, into result: inout [Int32]) {
        var low = 0, high = lowers.count
        lowers.withUnsafeBufferPointer { lowers in
            while low < high {
                let middle = (low + high) / 2
                if lowers[middle] <= value { low = middle + 1 } else { high = middle }
            }
        }
        let end = low
        guard end > 0 else { return }
        let checksStale = !stale.isEmpty
        let leafBase = leafBase
        entries.withUnsafeBufferPointer { entries in
            maxUpper.withUnsafeBufferPointer { maxUpper in
                // Depth is log2(leafBase) + 1 ≤ 64; a node's pending sibling per level.
                withUnsafeTemporaryAllocation(of: (node: Int, from: Int, to: Int).self, capacity: 128) { stack in
                    var depth = 0
                    stack[0] = (1, 0, leafBase)
                    depth = 1
                    while depth > 0 {
                        depth -= 1
                        let (node, from, to) = stack[depth]
                        guard from < end, maxUpper[node] >= value else { continue }
                        if node >= leafBase {
                            let entry = entries[from]
                            if !checksStale || !stale.contains(entry.serial) { result.append(entry.slot) }
                            continue
                        }
                        let middle = (from + to) / 2
                        // Right pushed first so the left is visited first (slots in entry order).
                        stack[depth] = (2 * node + 1, middle, to)
                        stack[depth + 1] = (2 * node, from, middle)
                        depth += 2
                    }
                }
            }
        }
    }
}
