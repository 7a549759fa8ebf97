/// The files one record refers to, as the asset ledger last saw them: the value of the
/// compacted changelog `asset-records`, keyed by `record`, on the partition number of the
/// record's zone in `record-changes`. A record that refers to no file has no value (a
/// tombstone).
///
/// ```json
/// {"record": "iCloud.com.example.notes/private/_u1/Notes/note-42",
///  "assets": [{"fileChecksum": "AbC8x+Qz", "size": 48213}], "lastOffset": 1207}
/// ```
public struct RecordAssets: Sendable, Hashable, Codable {
    /// `container/database/zoneOwner/zoneName/recordName`.
    public var record: String
    /// The referenced files, one per checksum, sorted by checksum; never empty.
    public var assets: [AssetFile]
    /// The `record-changes` offset of the change that last changed `assets`.
    public var lastOffset: Int64

    /// Creates a state; `assets` are sorted by checksum (the caller keeps them distinct).
    public init(record: String, assets: [AssetFile], lastOffset: Int64) {
        self.record = record
        self.assets = assets.sorted()
        self.lastOffset = lastOffset
    }

    private enum CodingKeys: String, CodingKey { case record, assets, lastOffset }

    /// Decodes and validates: a non-empty record, at least one asset, no checksum twice,
    /// an offset not negative. Assets are sorted by checksum.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        record = try c.decodeNonEmpty(.record)
        let files = try c.decode([AssetFile].self, forKey: .assets)
        guard !files.isEmpty else {
            throw c.error(.invalidValue, "a record without assets has no state (a tombstone), not an empty list", at: .assets)
        }
        var seen: Set<String> = []
        for (index, file) in files.enumerated() where !seen.insert(file.fileChecksum).inserted {
            throw ModelError(
                .invalidValue, "checksum \(file.fileChecksum) is listed twice",
                at: c.codingPath + [CodingKeys.assets, WireKey(index: index)])
        }
        assets = files.sorted()
        lastOffset = try c.decodeNonNegative(.lastOffset)
    }
}
