import HeraldAssets
import HeraldModel
import Testing

@Suite("Record asset ledger")
struct RecordAssetLedgerTests {
    typealias F = AssetFixtures

    @Test("a create references its assets; an update that swaps an asset releases the old one and takes the new one")
    func createAndSwap() throws {
        var ledger = RecordAssetLedger()
        let createdResult = ledger.apply(F.change("a", .create, ["photo": F.asset("X", 100)], at: 10), at: F.changeAt(0))
        let created = try #require(createdResult)
        #expect(created.events == [AssetReferenceEvent(fileChecksum: "X", size: 100, record: F.key("a"), referenced: true, at: 10)])
        #expect(created.state == RecordAssets(record: F.key("a"), assets: [AssetFile(fileChecksum: "X", size: 100)], lastOffset: 0))

        let swappedResult = ledger.apply(F.change("a", .update, ["photo": F.asset("W", 7)], at: 20), at: F.changeAt(1))

        let swapped = try #require(swappedResult)
        #expect(swapped.events == [
            AssetReferenceEvent(fileChecksum: "W", size: 7, record: F.key("a"), referenced: true, at: 20),
            AssetReferenceEvent(fileChecksum: "X", size: 100, record: F.key("a"), referenced: false, at: 20),
        ])
        #expect(ledger[F.key("a")]?.assets == [AssetFile(fileChecksum: "W", size: 7)])
        #expect(ledger[F.key("a")]?.lastOffset == 1)
    }

    @Test("an update that leaves the assets alone publishes nothing and keeps the state")
    func untouchedAssets() throws {
        var ledger = RecordAssetLedger()
        _ = ledger.apply(F.change("a", .create, ["photo": F.asset("X", 100), "title": .string("1")], at: 10), at: F.changeAt(0))
        #expect(ledger.apply(F.change("a", .update, ["photo": F.asset("X", 100), "title": .string("2")], at: 20), at: F.changeAt(1)) == nil)
        #expect(ledger[F.key("a")]?.lastOffset == 0)
        #expect(ledger.applied == [F.changes: 1])
    }

    @Test("a delete releases every asset and leaves no state, whatever its last fields")
    func delete() throws {
        var ledger = RecordAssetLedger()
        _ = ledger.apply(F.change("a", .create, ["photo": F.asset("X", 100), "doc": F.asset("Y", 5)], at: 10), at: F.changeAt(0))
        let deletedResult = ledger.apply(F.change("a", .delete, ["photo": F.asset("X", 100), "doc": F.asset("Y", 5)], at: 30), at: F.changeAt(1))
        let deleted = try #require(deletedResult)
        #expect(deleted.state == nil)
        #expect(deleted.events.map(\.fileChecksum) == ["X", "Y"])
        #expect(deleted.events.allSatisfy { !$0.referenced && $0.at == 30 })
        #expect(ledger.count == 0)
    }

    @Test("records without assets before or after keep no state and publish nothing")
    func recordsWithoutAssets() {
        var ledger = RecordAssetLedger()
        #expect(ledger.apply(F.change("p", .create, ["title": .string("x")], at: 1), at: F.changeAt(0)) == nil)
        #expect(ledger.apply(F.change("p", .update, ["title": .string("y")], at: 2), at: F.changeAt(1)) == nil)
        #expect(ledger.apply(F.change("p", .delete, ["title": .string("y")], at: 3), at: F.changeAt(2)) == nil)
        #expect(ledger.count == 0)
    }

    @Test("asset lists count: one reference per checksum, whether listed twice or also in a scalar field")
    func assetLists() throws {
        var ledger = RecordAssetLedger()
        let change = F.change("c", .create, ["scans": F.assets([("Y", 20), ("Z", 30), ("Y", 20)]), "cover": F.asset("Z", 30)], at: 5)
        let updateResult = ledger.apply(change, at: F.changeAt(0))
        let update = try #require(updateResult)
        #expect(update.events.map(\.fileChecksum) == ["Y", "Z"])
        #expect(update.state?.assets == [AssetFile(fileChecksum: "Y", size: 20), AssetFile(fileChecksum: "Z", size: 30)])
        let shrunkResult = ledger.apply(F.change("c", .update, ["scans": F.assets([("Y", 20)])], at: 6), at: F.changeAt(1))
        let shrunk = try #require(shrunkResult)
        #expect(shrunk.events == [AssetReferenceEvent(fileChecksum: "Z", size: 30, record: F.key("c"), referenced: false, at: 6)])
    }

    @Test("a change at or below the applied offset is a replay, even for a record whose state is gone")
    func replays() {
        var ledger = RecordAssetLedger()
        let create = F.change("a", .create, ["photo": F.asset("X", 100)], at: 10)
        _ = ledger.apply(create, at: F.changeAt(0))
        _ = ledger.apply(F.change("a", .delete, [:], at: 20), at: F.changeAt(1))
        #expect(ledger.apply(create, at: F.changeAt(0)) == nil)
        #expect(ledger.apply(create, at: F.changeAt(1)) == nil)
        #expect(ledger.count == 0)
        // The same content at a new offset is a new change: the record refers to X again.
        #expect(ledger.apply(create, at: F.changeAt(2))?.events.map(\.referenced) == [true])
    }

    @Test("rollback puts back the states and the watermark of the last commit")
    func rollback() {
        var ledger = RecordAssetLedger()
        _ = ledger.apply(F.change("a", .create, ["photo": F.asset("X", 100)], at: 10), at: F.changeAt(0))
        ledger.commit()
        let committed = ledger.records
        _ = ledger.apply(F.change("a", .delete, [:], at: 20), at: F.changeAt(1))
        _ = ledger.apply(F.change("b", .create, ["photo": F.asset("Y", 1)], at: 21), at: F.changeAt(2))
        ledger.rollback()
        #expect(ledger.records == committed)
        #expect(ledger.applied == [F.changes: 0])
        #expect(ledger.apply(F.change("a", .delete, [:], at: 20), at: F.changeAt(1))?.state == nil, "the batch is redone")
    }
}
