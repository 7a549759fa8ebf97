/// How far the asset ledger had applied one input partition, in the form written before it
/// kept the `AppliedOffsets` compose and schedule keep: the value of the `asset-records`
/// keys `record-changes#N` and `asset-refs#N` (without the topic prefix). Only read, on
/// restore, so that an upgrade from such a changelog counts nothing twice; the first
/// applied offsets of the new form written for the partition delete the old key.
///
/// ```json
/// {"input": "record-changes", "partition": 3, "offset": 1207}
/// ```
struct LegacyAppliedOffset: Sendable, Hashable, Decodable {
    /// Which input the offset is of.
    enum Input: String, Sendable, Hashable, Codable, CaseIterable {
        case recordChanges = "record-changes"
        case assetReferences = "asset-refs"

        /// The old changelog key of this input's partition, e.g. `record-changes#3`.
        func key(_ partition: Int32) -> String { "\(rawValue)#\(partition)" }
    }

    var input: Input
    var partition: Int32
    var offset: Int64

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
