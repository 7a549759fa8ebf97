/// Stored file data as the asset ledger sees it: the checksum that identifies the data and
/// its size in bytes. Records referring to the same checksum share one stored copy.
///
/// ```json
/// {"fileChecksum": "AbC8x+Qz", "size": 48213}
/// ```
public struct AssetFile: Sendable, Hashable, Codable, Comparable {
    /// The checksum of the data, as in the ASSETID field (`AssetReference.fileChecksum`).
    public var fileChecksum: String
    /// Bytes of the data; zero or more.
    public var size: Int64

    public init(fileChecksum: String, size: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
    }

    /// The file an ASSETID field points at.
    public init(_ reference: AssetReference) {
        self.init(fileChecksum: reference.fileChecksum, size: reference.size)
    }

    /// By checksum, then size.
    public static func < (lhs: AssetFile, rhs: AssetFile) -> Bool {
        (lhs.fileChecksum, lhs.size) < (rhs.fileChecksum, rhs.size)
    }

    private enum CodingKeys: String, CodingKey { case fileChecksum, size }

    /// Decodes and validates: a non-empty checksum, a size that is not negative.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fileChecksum = try c.decodeNonEmpty(.fileChecksum)
        size = try c.decodeNonNegative(.size)
    }
}
