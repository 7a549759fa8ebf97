import Foundation
import HeraldAssets
import HeraldModel

/// Record changes with assets, and a two-sided ledger driven like the stage drives it.
enum AssetFixtures {
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_u1")
    static let day: Int64 = 86_400_000
    static let grace = Duration.seconds(3 * 86_400)
    static let graceMilliseconds: Int64 = 3 * day
    static let start: Int64 = 1_795_300_000_000

    /// The input partitions the fixtures' changes and reference events are read from.
    static let changes = "herald.record-changes#0"
    static let references = "herald.asset-refs#0"

    /// The position of the change at `offset` of `record-changes` partition 0.
    static func changeAt(_ offset: some BinaryInteger) -> InputPosition {
        InputPosition(topic: "herald.record-changes", partition: 0, offset: Int64(offset))
    }

    /// The position of the reference event at `offset` of `asset-refs` partition 0.
    static func referenceAt(_ offset: some BinaryInteger) -> InputPosition {
        InputPosition(topic: "herald.asset-refs", partition: 0, offset: Int64(offset))
    }

    /// The ledger's key of a record in the fixtures' zone.
    static func key(_ recordName: String) -> String { "iCloud.com.example.notes/private/_u1/Notes/\(recordName)" }

    static func asset(_ checksum: String, _ size: Int64) -> FieldValue {
        .asset(AssetReference(fileChecksum: checksum, size: size))
    }

    static func assets(_ files: [(String, Int64)]) -> FieldValue {
        .list(files.map { asset($0.0, $0.1) }, of: .assetID)
    }

    static func change(
        _ recordName: String, _ kind: RecordChange.Kind = .update, _ fields: [String: FieldValue], at timestamp: Int64
    ) -> RecordChange {
        RecordChange(
            changeID: "\(recordName)-\(timestamp)", container: "iCloud.com.example.notes", database: .private, zoneID: zone,
            recordType: "Note", recordName: recordName, kind: kind, fields: fields, timestamp: timestamp)
    }

    /// A stream touching every case: creates, an asset swap, an update that leaves the
    /// assets alone, records without assets, lists, one checksum in several records, deletes.
    static let stream: [RecordChange] = [
        change("a", .create, ["photo": asset("X", 100), "title": .string("A")], at: start),
        change("b", .create, ["photo": asset("X", 100)], at: start + 1),
        change("plain", .create, ["title": .string("no assets")], at: start + 2),
        change("c", .create, ["scans": assets([("Y", 20), ("Z", 30), ("Y", 20)]), "cover": asset("Z", 30)], at: start + 3),
        change("a", .update, ["photo": asset("W", 7), "title": .string("A")], at: start + 4),
        change("a", .update, ["photo": asset("W", 7), "title": .string("A2")], at: start + 5),
        change("plain", .update, ["title": .string("still none")], at: start + 6),
        change("b", .delete, ["photo": asset("X", 100)], at: start + 7),
        change("c", .update, ["scans": assets([("Y", 20)])], at: start + 8),
        change("d", .create, ["photo": asset("X", 100)], at: start + 9),
        change("d", .delete, ["photo": asset("X", 100)], at: start + 10),
    ]
}

/// Both sides of the ledger for one partition, with the `asset-refs` log in between, as
/// the stage runs them (the offset of each message is its index in its log).
struct LedgerHarness {
    var records = RecordAssetLedger()
    var assets = AssetLedger()
    /// The `asset-refs` log.
    var references: [AssetReferenceEvent] = []
    /// Entries each applied event produced, in order.
    var entryUpdates: [AssetLedgerEntry] = []

    /// Applies `changes[range]` at their offsets, then every reference event not yet applied.
    mutating func feed(_ changes: [RecordChange], _ range: Range<Int>) {
        for index in range {
            if let update = records.apply(changes[index], at: AssetFixtures.changeAt(index)) { references += update.events }
        }
        let next = Int(assets.applied.bySource[AssetFixtures.references].map { $0 + 1 } ?? 0)
        for offset in next..<references.count {
            if let entry = assets.apply(references[offset], at: AssetFixtures.referenceAt(offset)) { entryUpdates.append(entry) }
        }
    }

    /// The ledger restored from encoded changelog values, as a new owner of the partition would.
    func restored() throws -> LedgerHarness {
        let codec = WireCodec()
        var copy = self
        copy.records = RecordAssetLedger(
            applied: records.applied,
            records: try records.records.map { try codec.decode(RecordAssets.self, from: codec.encode($0)) })
        copy.assets = AssetLedger(
            applied: assets.applied,
            entries: try assets.allEntries.map { try codec.decode(AssetLedgerEntry.self, from: codec.encode($0)) })
        return copy
    }
}
