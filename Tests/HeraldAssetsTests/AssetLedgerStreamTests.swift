import HeraldAssets
import HeraldModel
import Testing

/// The two sides together over a stream of changes, as the stage runs them.
@Suite("Asset ledger over a stream")
struct AssetLedgerStreamTests {
    typealias F = AssetFixtures

    private func complete() -> LedgerHarness {
        var harness = LedgerHarness()
        harness.feed(F.stream, F.stream.indices)
        return harness
    }

    @Test("the stream ends with the right references per file")
    func finalCounts() {
        let harness = complete()
        #expect(harness.assets.allEntries.map(\.fileChecksum) == ["W", "X", "Y", "Z"])
        #expect(harness.assets["W"]?.records == [F.key("a")])
        #expect(harness.assets["Y"]?.records == [F.key("c")])
        #expect(harness.assets["X"]?.records == [] && harness.assets["X"]?.unreferencedSince == F.start + 10)
        #expect(harness.assets["Z"]?.records == [] && harness.assets["Z"]?.unreferencedSince == F.start + 8)
        #expect(harness.records.records.map(\.record) == [F.key("a"), F.key("c")])
        let stats = harness.assets.stats
        #expect(stats == AssetStats(harness.assets.allEntries))
        #expect(stats.storedBytes == 7 + 100 + 20 + 30 && stats.referencedBytes == 7 + 20)
        #expect(stats.awaitingCollection == 2 && stats.awaitingCollectionBytes == 130)
    }

    @Test("replaying any prefix of the stream on both sides publishes and counts nothing twice", arguments: 0...AssetFixtures.stream.count)
    func replayPrefix(_ length: Int) {
        var harness = complete()
        let before = (harness.records.records, harness.assets.allEntries, harness.references.count)
        for index in 0..<length {
            #expect(harness.records.apply(F.stream[index], at: F.changeAt(index)) == nil)
        }
        for offset in 0..<min(length, harness.references.count) {
            #expect(harness.assets.apply(harness.references[offset], at: F.referenceAt(offset)) == nil)
        }
        #expect(harness.records.records == before.0)
        #expect(harness.assets.allEntries == before.1)
        #expect(harness.references.count == before.2)
    }

    @Test("restoring the encoded state at any point of the stream gives the same results", arguments: 0...AssetFixtures.stream.count)
    func restoreMidStream(_ split: Int) throws {
        let whole = complete()
        var harness = LedgerHarness()
        harness.feed(F.stream, 0..<split)
        harness = try harness.restored()
        harness.feed(F.stream, split..<F.stream.count)
        #expect(harness.references == whole.references)
        #expect(harness.entryUpdates == whole.entryUpdates)
        #expect(harness.records.records == whole.records.records)
        #expect(harness.assets.allEntries == whole.assets.allEntries)
        var collected = harness.assets
        var expected = whole.assets
        let now = F.start + 10 + F.graceMilliseconds
        #expect(collected.collectDue(now: now, gracePeriod: F.grace) == expected.collectDue(now: now, gracePeriod: F.grace))
    }
}
