/// Where a user's device was: the value of topic `locations`, keyed by `recipient`. The
/// schedule stage checks it against the user's region schedules in `container`.
///
/// ```json
/// {"recipient": "_u1", "container": "iCloud.com.example.clock", "latitude": 48.8584,
///  "longitude": 2.2945, "timestamp": 1795300000000, "horizontalAccuracy": 12}
/// ```
public struct DeviceLocation: Sendable, Hashable, Codable {
    /// The user (the Kafka key).
    public var recipient: String
    /// The app that reported it: only this container's regions see it.
    public var container: String
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double
    /// When the device was there, milliseconds since 1970.
    public var timestamp: Int64
    /// The radius of uncertainty in metres, not negative.
    public var horizontalAccuracy: Double?

    /// Creates a location (not validated: validation happens on decode).
    public init(
        recipient: String, container: String, latitude: Double, longitude: Double, timestamp: Int64,
        horizontalAccuracy: Double? = nil
    ) {
        self.recipient = recipient
        self.container = container
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
        self.horizontalAccuracy = horizontalAccuracy
    }

    /// The Kafka key: the recipient.
    public var partitionKey: String { recipient }

    private enum CodingKeys: String, CodingKey {
        case recipient, container, latitude, longitude, timestamp, horizontalAccuracy
    }

    /// Decodes and validates: recipient and container non-empty, coordinates in range, a
    /// timestamp (required) and accuracy not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recipient = try c.decodeNonEmpty(.recipient)
        container = try c.decodeNonEmpty(.container)
        latitude = try c.decodeLatitude(.latitude)
        longitude = try c.decodeLongitude(.longitude)
        timestamp = try c.decodeNonNegative(.timestamp)
        horizontalAccuracy = try c.decodeIfPresent(Double.self, forKey: .horizontalAccuracy)
        if let horizontalAccuracy, horizontalAccuracy < 0 {
            throw c.error(.invalidValue, "must not be negative, got \(horizontalAccuracy)", at: .horizontalAccuracy)
        }
    }
}
