/// How far the asset ledger has applied one input partition: the value of the
/// `asset-records` keys `record-changes#N` and `asset-refs#N`, written with the states a
/// batch changed on that partition.
///
/// Records and files that went away leave only tombstones, so their own `lastOffset` is
/// gone; this watermark is what still tells a replayed input from a new one after a
/// restart. The keys contain no `/`, so they are never a record's key
/// (`container/database/zoneOwner/zoneName/recordName`).
///
/// ```json
/// {"input": "record-changes", "partition": 3, "offset": 1207}
/// ```
struct AppliedOffset: Sendable, Hashable, Codable {
    /// Which input the offset is of.
    enum Input: String, Sendable, Hashable, Codable, CaseIterable {
        case recordChanges = "record-changes"
        case assetReferences = "asset-refs"
    }

    var input: Input
    var partition: Int32
    var offset: Int64

    init(input: Input, partition: Int32, offset: Int64) {
        self.input = input
        self.partition = partition
        self.offset = offset
    }

    /// The changelog key, e.g. `record-changes#3`.
    var key: String { input.key(partition) }

    private enum CodingKeys: String, CodingKey { case input, partition, offset }

    /// Decodes and validates: a known input, partition and offset not negative.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        input = try c.decode(Input.self, forKey: .input)
        partition = try c.decode(Int32.self, forKey: .partition)
        guard partition >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .partition, in: c, debugDescription: "must not be negative")
        }
        offset = try c.decode(Int64.self, forKey: .offset)
        guard offset >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .offset, in: c, debugDescription: "must not be negative")
        }
    }
}
