import Foundation

extension TimeZone {
    /// The wall-clock time of `instant` in this zone, as "nominal" milliseconds: the
    /// instant that shows the same date and time on a UTC clock.
    public func wallClock(of instant: Int64) -> Int64 {
        instant + Int64(offsetSeconds(at: instant)) * 1000
    }

    /// The instant at which this zone's clocks show the wall-clock time `nominal`
    /// (milliseconds since 1970 read in UTC), decided explicitly rather than left to the
    /// platform:
    ///
    /// - a time that occurs once: that instant;
    /// - a time that occurs twice (clocks set back): the **first** (earlier) instant;
    /// - a time that does not exist (clocks set forward): the same distance into the
    ///   gap, after the transition — 02:30 on a day whose 02:00 becomes 03:00 gives
    ///   03:30 — which is what Foundation's `Calendar` does.
    ///
    /// The candidate offsets are the zone's offsets 15 hours either side of the time and
    /// at it, so one transition in that window is handled exactly (no zone has two).
    public func instant(forWallClock nominal: Int64) -> Int64 {
        let window: Int64 = 15 * 3_600_000
        let probes = [nominal - window, nominal, nominal + window]
        var offsets = Set(probes.map { Int64(offsetSeconds(at: $0)) * 1000 })
        for offset in Array(offsets) { offsets.insert(Int64(offsetSeconds(at: nominal - offset)) * 1000) }
        // An offset is valid for this wall-clock time when the zone really has it at the resulting instant.
        let valid = offsets.filter { Int64(offsetSeconds(at: nominal - $0)) * 1000 == $0 }
        if let largest = valid.max() { return nominal - largest }
        // In a gap: read the time with the offset from before the transition, the smaller one.
        return nominal - (offsets.min() ?? 0)
    }

    /// Seconds east of UTC at `instant` (milliseconds since 1970).
    func offsetSeconds(at instant: Int64) -> Int {
        secondsFromGMT(for: Date(timeIntervalSince1970: Double(ISO8601Instant.floorDivision(instant, 1000).0)))
    }
}
