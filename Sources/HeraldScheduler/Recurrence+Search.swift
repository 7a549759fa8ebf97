import Foundation
import HeraldModel

extension Recurrence {
    /// The first occurrence strictly after `instant` whose index is above `firedIndex`.
    ///
    /// When several occurrences share that instant, the one with the highest index.
    /// - Parameters:
    ///   - instant: milliseconds since 1970.
    ///   - firedIndex: the index of the last occurrence already fired (`nil`: none), so
    ///     that reading the schedule in another zone never fires an occurrence twice.
    public func nextOccurrence(after instant: Int64, beyond firedIndex: Int? = nil) -> Occurrence? {
        guard instant < Self.searchLimits.upperBound else { return nil }
        let instant = max(instant, Self.searchLimits.lowerBound)
        let offsets = offsetBounds(near: instant)
        // Placing subtracts an offset in [low, high]: a nominal time n gives an instant in [n - high, n - low].
        var k = max(firstIndex(nominalAbove: instant + offsets.low), (firedIndex ?? -1) + 1)
        var best: Occurrence?
        while let nominal = nominal(k) {
            if let best, nominal - offsets.high > best.instant { break }
            let placed = place(nominal)
            if placed > instant, placed <= best?.instant ?? .max { best = Occurrence(index: k, instant: placed) }
            k += 1
        }
        return best
    }

    /// The latest occurrence at or before `instant` whose index is above `firedIndex`.
    ///
    /// When several occurrences share that instant, the one with the highest index.
    public func latestOccurrence(atOrBefore instant: Int64, beyond firedIndex: Int? = nil) -> Occurrence? {
        guard instant >= Self.searchLimits.lowerBound else { return nil }
        let instant = min(instant, Self.searchLimits.upperBound)
        let offsets = offsetBounds(near: instant)
        var k = firstIndex(nominalAbove: instant + offsets.high) - 1
        let lowest = (firedIndex ?? -1) + 1
        var best: Occurrence?
        while k >= lowest, let nominal = nominal(k) {
            if let best, nominal - offsets.low < best.instant { break }
            let placed = place(nominal)
            if placed <= instant, placed > best?.instant ?? .min { best = Occurrence(index: k, instant: placed) }
            k -= 1
        }
        return best
    }

    /// The smallest `k >= 0` whose nominal time is after `limit` (one past the last index
    /// when there is none): estimated from the unit's average length, refined, then
    /// stepped, so the cost does not grow with the distance from the fire date.
    func firstIndex(nominalAbove limit: Int64) -> Int {
        guard let base, limit >= base else { return 0 }
        guard let interval else { return 1 }
        let average = interval.fixedMilliseconds.map(Double.init)
            ?? NominalCalendar.Step(interval).map(calendar.averageMilliseconds) ?? 1
        let maximum = Int((Double(ISO8601Instant.latest - base) / average).rounded(.up)) + 16
        var k = min(maximum, Int(Double(limit - base) / average))
        for _ in 0..<8 {
            guard let nominal = nominal(k) else { break }
            let error = Double(limit - nominal) / average
            if abs(error) < 2 { break }
            k = min(maximum, max(0, k + Int(error)))
        }
        // nil nominal times only lie past the end, after every real one.
        while k > 0, nominal(k - 1).map({ $0 > limit }) ?? true { k -= 1 }
        while let nominal = nominal(k), nominal <= limit { k += 1 }
        return k
    }

    /// Every occurrence lies within these instants (1970 to 9999, widened by two days for
    /// the zone offsets); searches clamp their argument to them, so no arithmetic overflows.
    static let searchLimits = (-2 * NominalCalendar.day)...(ISO8601Instant.latest + 2 * NominalCalendar.day)

    /// The lowest and highest UTC offsets (milliseconds) of `zone` within two days of
    /// `instant`; both 0 for an absolute schedule.
    func offsetBounds(near instant: Int64) -> (low: Int64, high: Int64) {
        guard let zone else { return (0, 0) }
        let day = NominalCalendar.day
        let offsets = [-2 * day, -day, 0, day, 2 * day].map { zone.wallClock(of: instant + $0) - (instant + $0) }
        return (offsets.min() ?? 0, offsets.max() ?? 0)
    }
}
