/// Stored file data no record has referred to for the whole grace period, so it may be
/// deleted: the value of topic `asset-gc`, keyed by `fileChecksum`. Deleting is the
/// consumer's business and must be idempotent (a replayed stage can repeat an event).
///
/// ```json
/// {"fileChecksum": "AbC8x+Qz", "size": 48213, "unreferencedSince": 1795300000000}
/// ```
public struct AssetCollection: Sendable, Hashable, Codable {
    public var fileChecksum: String
    public var size: Int64
    /// When the last referring record let go of the data, milliseconds since 1970.
    public var unreferencedSince: Int64

    public init(fileChecksum: String, size: Int64, unreferencedSince: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.unreferencedSince = unreferencedSince
    }

    /// The Kafka key: the file checksum.
    public var partitionKey: String { fileChecksum }

    private enum CodingKeys: String, CodingKey { case fileChecksum, size, unreferencedSince }

    /// Decodes and validates: a non-empty checksum, size and time not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fileChecksum = try c.decodeNonEmpty(.fileChecksum)
        size = try c.decodeNonNegative(.size)
        unreferencedSince = try c.decodeNonNegative(.unreferencedSince)
    }
}
