import HeraldModel

/// Whether a user is inside one region schedule's circle, and what a new location
/// changes, as Core Location's region monitoring does.
///
/// The first location after the schedule is armed only establishes inside or outside
/// (no event when already inside at registration). After that, outside → inside is an
/// entry and inside → outside an exit; the region's flags decide whether they fire.
/// A location older than the last one applied (by timestamp) is ignored. Inside means a
/// great-circle distance from the centre of at most the radius.
public struct RegionTracker: Sendable, Hashable, Codable {
    /// `nil` until the first location.
    public var inside: Bool?
    /// The timestamp of the last location applied.
    public var lastTimestamp: Int64?

    /// A tracker that knows nothing yet.
    public init(inside: Bool? = nil, lastTimestamp: Int64? = nil) {
        self.inside = inside
        self.lastTimestamp = lastTimestamp
    }

    /// Applies `location` to `region`; returns the trigger it fires, if any.
    public mutating func observe(_ location: DeviceLocation, in region: ScheduleRegion) -> ScheduledFiring.Trigger? {
        if let lastTimestamp, location.timestamp < lastTimestamp { return nil }
        lastTimestamp = location.timestamp
        let now = Self.contains(region, latitude: location.latitude, longitude: location.longitude)
        defer { inside = now }
        switch (inside, now) {
        case (false?, true) where region.notifyOnEntry: return .regionEntry
        case (true?, false) where region.notifyOnExit: return .regionExit
        default: return nil
        }
    }

    /// Whether the point is within the region's circle (on its edge counts as inside).
    public static func contains(_ region: ScheduleRegion, latitude: Double, longitude: Double) -> Bool {
        GreatCircle.metres(latitude: region.latitude, longitude: region.longitude, latitude: latitude, longitude: longitude)
            <= region.radius
    }
}
