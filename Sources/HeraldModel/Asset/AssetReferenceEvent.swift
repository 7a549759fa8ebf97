/// A record started or stopped referring to stored file data: the value of topic
/// `asset-refs`, keyed by `fileChecksum` so that every reference to one checksum is counted
/// by one owner, in order.
///
/// ```json
/// {"fileChecksum": "AbC8x+Qz", "size": 48213, "record": "iCloud.com.example.notes/private/_u1/Notes/note-42",
///  "referenced": true, "at": 1795300000000}
/// ```
public struct AssetReferenceEvent: Sendable, Hashable, Codable {
    public var fileChecksum: String
    /// Bytes of the data, as the referring record states it.
    public var size: Int64
    /// The referring record: `container/database/zoneOwner/zoneName/recordName`.
    public var record: String
    /// `true`: the record now refers to the data; `false`: it no longer does.
    public var referenced: Bool
    /// When the record changed (the change's timestamp), milliseconds since 1970.
    public var at: Int64

    public init(fileChecksum: String, size: Int64, record: String, referenced: Bool, at: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.record = record
        self.referenced = referenced
        self.at = at
    }

    /// The file the event is about.
    public var file: AssetFile { AssetFile(fileChecksum: fileChecksum, size: size) }

    /// The Kafka key: the file checksum.
    public var partitionKey: String { fileChecksum }

    private enum CodingKeys: String, CodingKey { case fileChecksum, size, record, referenced, at }

    /// Decodes and validates: checksum and record non-empty, size and time not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fileChecksum = try c.decodeNonEmpty(.fileChecksum)
        size = try c.decodeNonNegative(.size)
        record = try c.decodeNonEmpty(.record)
        referenced = try c.decode(Bool.self, forKey: .referenced)
        at = try c.decodeNonNegative(.at)
    }
}
