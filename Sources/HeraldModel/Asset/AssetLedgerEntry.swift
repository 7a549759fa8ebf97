/// What the asset ledger knows of one stored file: which records refer to it, and since
/// when none does. The value of the compacted changelog `asset-ledger`, keyed by
/// `fileChecksum`, on the checksum's partition number of `asset-refs`; collected files
/// have no value (a tombstone).
///
/// ```json
/// {"fileChecksum": "AbC8x+Qz", "size": 48213, "records": ["iCloud.com.example.notes/private/_u1/Notes/note-42"],
///  "lastOffset": 88}
/// {"fileChecksum": "Zz91kQ==", "size": 1200, "records": [], "unreferencedSince": 1795300000000, "lastOffset": 90}
/// ```
///
/// References are counted by record, not by change: a record is in `records` or not, so a
/// repeated reference event changes nothing.
public struct AssetLedgerEntry: Sendable, Hashable, Codable {
    public var fileChecksum: String
    /// Bytes of the data, as the latest reference stated it.
    public var size: Int64
    /// The referring records (`container/database/zoneOwner/zoneName/recordName`), sorted, distinct.
    public var records: [String]
    /// Set exactly when `records` is empty: when the last record let go, milliseconds since 1970.
    public var unreferencedSince: Int64?
    /// The `asset-refs` offset of the event that last changed this entry.
    public var lastOffset: Int64

    /// Creates an entry; `records` are sorted and made distinct.
    public init(fileChecksum: String, size: Int64, records: [String], unreferencedSince: Int64?, lastOffset: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.records = Array(Set(records)).sorted()
        self.unreferencedSince = unreferencedSince
        self.lastOffset = lastOffset
    }

    /// The stored file.
    public var file: AssetFile { AssetFile(fileChecksum: fileChecksum, size: size) }

    /// How many records refer to the file.
    public var referenceCount: Int { records.count }

    /// Whether `record` refers to the file (binary search).
    public func isReferenced(by record: String) -> Bool {
        let index = insertionIndex(of: record)
        return index < records.endIndex && records[index] == record
    }

    /// Adds a referring record; `false` when it was already there.
    @discardableResult
    public mutating func addRecord(_ record: String) -> Bool {
        let index = insertionIndex(of: record)
        guard index == records.endIndex || records[index] != record else { return false }
        records.insert(record, at: index)
        return true
    }

    /// Removes a referring record; `false` when it was not there.
    @discardableResult
    public mutating func removeRecord(_ record: String) -> Bool {
        let index = insertionIndex(of: record)
        guard index < records.endIndex, records[index] == record else { return false }
        records.remove(at: index)
        return true
    }

    private func insertionIndex(of record: String) -> Int {
        var low = records.startIndex
        var high = records.endIndex
        while low < high {
            let middle = (low + high) / 2
            if records[middle] < record { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private enum CodingKeys: String, CodingKey { case fileChecksum, size, records, unreferencedSince, lastOffset }

    /// Decodes and validates: a non-empty checksum, size and offset not negative, records
    /// non-empty and distinct (sorted here), and `unreferencedSince` present exactly when
    /// there is no record.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fileChecksum = try c.decodeNonEmpty(.fileChecksum)
        size = try c.decodeNonNegative(.size)
        let listed = try c.decodeNonEmptyStringsIfPresent(.records) ?? []
        var seen: Set<String> = []
        for (index, record) in listed.enumerated() where !seen.insert(record).inserted {
            throw ModelError(
                .invalidValue, "record \(record) is listed twice", at: c.codingPath + [CodingKeys.records, WireKey(index: index)])
        }
        records = listed.sorted()
        unreferencedSince = try c.decodeNonNegativeIfPresent(.unreferencedSince)
        if records.isEmpty, unreferencedSince == nil {
            throw c.error(.missingValue, "an entry without records must say since when it is unreferenced", at: .unreferencedSince)
        }
        if !records.isEmpty, unreferencedSince != nil {
            throw c.error(.invalidValue, "an entry with records is not unreferenced", at: .unreferencedSince)
        }
        lastOffset = try c.decodeNonNegative(.lastOffset)
    }
}
