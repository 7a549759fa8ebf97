import Foundation
import HeraldAssets
import HeraldModel
import Testing

@Suite("Asset wire formats")
struct AssetWireTests {
    private let codec = WireCodec()

    private func decodeError<T: Decodable>(_ type: T.Type, _ json: String) -> ModelError? {
        do {
            _ = try codec.decode(type, from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("each value survives an encode–decode round trip")
    func roundTrips() throws {
        let event = AssetReferenceEvent(fileChecksum: "AbC+/8=", size: 48213, record: "c/private/_u1/Notes/n", referenced: true, at: 1)
        #expect(try codec.decode(AssetReferenceEvent.self, from: codec.encode(event)) == event)
        let collection = AssetCollection(fileChecksum: "AbC", size: 0, unreferencedSince: 1_795_300_000_000)
        #expect(try codec.decode(AssetCollection.self, from: codec.encode(collection)) == collection)
        let record = RecordAssets(record: "c/private/_u1/Notes/n", assets: [.init(fileChecksum: "B", size: 2), .init(fileChecksum: "A", size: 1)], lastOffset: 9)
        #expect(record.assets.map(\.fileChecksum) == ["A", "B"])
        #expect(try codec.decode(RecordAssets.self, from: codec.encode(record)) == record)
        let awaiting = AssetLedgerEntry(fileChecksum: "A", size: 1, records: [], unreferencedSince: 5, lastOffset: 3)
        #expect(try codec.decode(AssetLedgerEntry.self, from: codec.encode(awaiting)) == awaiting)
        let referenced = AssetLedgerEntry(fileChecksum: "A", size: 1, records: ["r2", "r1", "r2"], unreferencedSince: nil, lastOffset: 3)
        #expect(referenced.records == ["r1", "r2"])
        #expect(String(decoding: try codec.encode(referenced), as: UTF8.self)
            == #"{"fileChecksum":"A","lastOffset":3,"records":["r1","r2"],"size":1}"#)
    }

    @Test("invalid values are refused with the path and the reason", arguments: [
        (#"{"fileChecksum": "", "size": 1, "record": "r", "referenced": true, "at": 1}"#, "fileChecksum: must not be empty"),
        (#"{"fileChecksum": "X", "size": -1, "record": "r", "referenced": true, "at": 1}"#, "size: must not be negative, got -1"),
        (#"{"fileChecksum": "X", "size": 1, "record": "r", "referenced": "yes", "at": 1}"#, "referenced: expected a boolean"),
    ])
    func invalidEvents(_ json: String, _ expected: String) throws {
        let error = try #require(decodeError(AssetReferenceEvent.self, json))
        #expect(error.description.hasPrefix(expected))
    }

    @Test("ledger entries: unreferencedSince exactly when there is no record; no record twice")
    func invalidEntries() throws {
        let both = try #require(decodeError(AssetLedgerEntry.self, #"{"fileChecksum": "X", "size": 1, "records": ["r"], "unreferencedSince": 4, "lastOffset": 0}"#))
        #expect(both.description == "unreferencedSince: an entry with records is not unreferenced")
        let neither = try #require(decodeError(AssetLedgerEntry.self, #"{"fileChecksum": "X", "size": 1, "records": [], "lastOffset": 0}"#))
        #expect(neither.code == .missingValue && neither.path == "unreferencedSince")
        let twice = try #require(decodeError(AssetLedgerEntry.self, #"{"fileChecksum": "X", "size": 1, "records": ["r", "r"], "lastOffset": 0}"#))
        #expect(twice.description == "records[1]: record r is listed twice")
    }

    @Test("record states: at least one asset, no checksum twice")
    func invalidRecordStates() throws {
        let empty = try #require(decodeError(RecordAssets.self, #"{"record": "r", "assets": [], "lastOffset": 0}"#))
        #expect(empty.path == "assets")
        let twice = try #require(decodeError(RecordAssets.self, #"{"record": "r", "assets": [{"fileChecksum": "A", "size": 1}, {"fileChecksum": "A", "size": 2}], "lastOffset": 0}"#))
        #expect(twice.description == "assets[1]: checksum A is listed twice")
        let negative = try #require(decodeError(RecordAssets.self, #"{"record": "r", "assets": [{"fileChecksum": "A", "size": -3}], "lastOffset": 0}"#))
        #expect(negative.path == "assets[0].size")
    }
}
