/// The circular region a schedule fires on (UILocalNotification's `region`, a
/// `CLCircularRegion`): a centre, a radius, and whether entering and/or leaving it fires.
///
/// ```json
/// {"latitude": 48.8584, "longitude": 2.2945, "radius": 200, "notifyOnExit": false}
/// ```
///
/// The radius is in metres, above 0 and at most `maximumRadius` (1000 km: Core Location
/// caps monitored regions at a device-dependent `maximumRegionMonitoringDistance`;
/// Herald fixes one bound so a region is never "the whole planet"). At least one of
/// `notifyOnEntry` and `notifyOnExit` is true; both default to true and are omitted
/// from the encoding when true.
public struct ScheduleRegion: Sendable, Hashable, Codable {
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// Metres, in (0, `maximumRadius`].
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    /// The largest radius accepted, in metres.
    public static let maximumRadius = 1_000_000.0

    /// Creates a region (not validated: validation happens on decode).
    public init(latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude, radius, notifyOnEntry, notifyOnExit }

    /// Decodes and validates the ranges above.
    /// - Throws: `ModelError` at the offending member.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latitude = try c.decodeLatitude(.latitude)
        longitude = try c.decodeLongitude(.longitude)
        radius = try c.decode(Double.self, forKey: .radius)
        guard radius > 0, radius <= Self.maximumRadius else {
            throw c.error(.invalidValue, "radius must be above 0 and at most 1000000 metres, got \(radius)", at: .radius)
        }
        notifyOnEntry = try c.decodeIfPresent(Bool.self, forKey: .notifyOnEntry) ?? true
        notifyOnExit = try c.decodeIfPresent(Bool.self, forKey: .notifyOnExit) ?? true
        guard notifyOnEntry || notifyOnExit else {
            throw c.error(.invalidValue, "a region notifies on entry, on exit or both, not neither", at: .notifyOnEntry)
        }
    }

    /// Encodes the centre and radius, and the flags only when false.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(radius, forKey: .radius)
        if !notifyOnEntry { try c.encode(false, forKey: .notifyOnEntry) }
        if !notifyOnExit { try c.encode(false, forKey: .notifyOnExit) }
    }
}
