import HeraldAssets
import HeraldModel
import Testing

@Suite("Asset ledger")
struct AssetLedgerTests {
    typealias F = AssetFixtures

    private func event(_ checksum: String, _ record: String, _ referenced: Bool, at: Int64, size: Int64 = 100) -> AssetReferenceEvent {
        AssetReferenceEvent(fileChecksum: checksum, size: size, record: F.key(record), referenced: referenced, at: at)
    }

    @Test("references are counted by record: a repeated event or releasing an absent record changes nothing")
    func countsByRecord() throws {
        var ledger = AssetLedger()
        #expect(ledger.apply(event("X", "a", true, at: 1), at: F.referenceAt(0))?.records == [F.key("a")])
        #expect(ledger.apply(event("X", "a", true, at: 2), at: F.referenceAt(1)) == nil)
        #expect(ledger.apply(event("X", "b", true, at: 3), at: F.referenceAt(2))?.referenceCount == 2)
        #expect(ledger.apply(event("X", "z", false, at: 4), at: F.referenceAt(3)) == nil)
        #expect(ledger.apply(event("Q", "a", false, at: 5), at: F.referenceAt(4)) == nil, "a file the ledger does not hold")
        #expect(ledger.count == 1)
        #expect(ledger["X"]?.lastOffset == 2)
    }

    @Test("the same checksum in many records is stored once and referenced many times")
    func storedOnce() {
        var ledger = AssetLedger()
        for (offset, record) in ["a", "b", "c", "d"].enumerated() {
            _ = ledger.apply(event("X", record, true, at: 1, size: 1000), at: F.referenceAt(offset))
        }
        _ = ledger.apply(event("Y", "a", true, at: 1, size: 10), at: F.referenceAt(4))
        _ = ledger.apply(event("Y", "a", false, at: 2, size: 10), at: F.referenceAt(5))
        let stats = ledger.stats
        #expect(stats.assets == 2)
        #expect(stats.storedBytes == 1010)
        #expect(stats.references == 4)
        #expect(stats.referencedBytes == 4000)
        #expect(stats.awaitingCollection == 1 && stats.awaitingCollectionBytes == 10)
    }

    @Test("an unreferenced file is due exactly at unreferencedSince + grace, and collecting removes it")
    func dueAtGraceEnd() throws {
        var ledger = AssetLedger()
        _ = ledger.apply(event("X", "a", true, at: F.start), at: F.referenceAt(0))
        let releasedResult = ledger.apply(event("X", "a", false, at: F.start + 5), at: F.referenceAt(1))
        let released = try #require(releasedResult)
        #expect(released.unreferencedSince == F.start + 5 && released.records.isEmpty)
        let due = F.start + 5 + F.graceMilliseconds
        #expect(ledger.collectDue(now: due - 1, gracePeriod: F.grace).isEmpty)
        #expect(ledger.collectDue(now: due, gracePeriod: F.grace) == [AssetCollection(fileChecksum: "X", size: 100, unreferencedSince: F.start + 5)])
        #expect(ledger["X"] == nil)
        #expect(ledger.collectDue(now: due + F.day, gracePeriod: F.grace).isEmpty, "collected once")
        // A later reference starts a new entry.
        #expect(ledger.apply(event("X", "b", true, at: due + 1), at: F.referenceAt(2))?.records == [F.key("b")])
    }

    @Test("a new reference cancels the wait; a later release starts a new grace period")
    func cancelledAndRestarted() throws {
        var ledger = AssetLedger()
        _ = ledger.apply(event("X", "a", true, at: F.start), at: F.referenceAt(0))
        _ = ledger.apply(event("X", "a", false, at: F.start + F.day), at: F.referenceAt(1))
        let backResult = ledger.apply(event("X", "b", true, at: F.start + 2 * F.day), at: F.referenceAt(2))
        let back = try #require(backResult)
        #expect(back.unreferencedSince == nil)
        #expect(ledger.collectDue(now: F.start + 10 * F.day, gracePeriod: F.grace).isEmpty)
        _ = ledger.apply(event("X", "b", false, at: F.start + 11 * F.day), at: F.referenceAt(3))
        #expect(ledger.collectDue(now: F.start + 14 * F.day - 1, gracePeriod: F.grace).isEmpty)
        #expect(ledger.collectDue(now: F.start + 14 * F.day, gracePeriod: F.grace).map(\.unreferencedSince) == [F.start + 11 * F.day])
    }

    @Test("collections come oldest first, and only those due")
    func collectionOrder() {
        var ledger = AssetLedger()
        for (offset, (checksum, at)) in [("C", 30), ("A", 10), ("B", 20), ("D", 40)].enumerated() {
            _ = ledger.apply(event(checksum, "r", true, at: Int64(at)), at: F.referenceAt(2 * offset))
            _ = ledger.apply(event(checksum, "r", false, at: Int64(at)), at: F.referenceAt(2 * offset + 1))
        }
        let due = ledger.collectDue(now: 30 + F.graceMilliseconds, gracePeriod: F.grace)
        #expect(due.map(\.fileChecksum) == ["A", "B", "C"])
        #expect(ledger.count == 1)
    }

    @Test("replayed events change nothing, even for a file already collected")
    func replaysAfterCollection() {
        var ledger = AssetLedger()
        let events = [event("X", "a", true, at: 1), event("X", "b", true, at: 2), event("X", "a", false, at: 3), event("X", "b", false, at: 4)]
        for (offset, event) in events.enumerated() { _ = ledger.apply(event, at: F.referenceAt(offset)) }
        #expect(ledger.collectDue(now: 4 + F.graceMilliseconds, gracePeriod: F.grace).count == 1)
        for (offset, event) in events.enumerated() { #expect(ledger.apply(event, at: F.referenceAt(offset)) == nil) }
        #expect(ledger.count == 0)
        #expect(ledger.collectDue(now: .max, gracePeriod: F.grace).isEmpty)
    }

    @Test("rollback undoes applied events and collections since the last commit")
    func rollback() {
        var ledger = AssetLedger()
        _ = ledger.apply(event("X", "a", true, at: 1), at: F.referenceAt(0))
        _ = ledger.apply(event("X", "a", false, at: 2), at: F.referenceAt(1))
        ledger.commit()
        let committed = ledger.allEntries
        #expect(ledger.collectDue(now: 2 + F.graceMilliseconds, gracePeriod: F.grace).count == 1)
        _ = ledger.apply(event("Y", "a", true, at: 3), at: F.referenceAt(2))
        ledger.rollback()
        #expect(ledger.allEntries == committed)
        #expect(ledger.applied == [F.references: 1])
        #expect(ledger.collectDue(now: 2 + F.graceMilliseconds, gracePeriod: F.grace).map(\.fileChecksum) == ["X"], "the tick is redone")
    }

    @Test("a file that keeps being released and taken back stays collectable exactly once")
    func flappingReference() {
        var ledger = AssetLedger()
        var offset: Int64 = 0
        for round in 0..<500 {
            _ = ledger.apply(event("X", "a", true, at: Int64(2 * round)), at: F.referenceAt(offset))
            _ = ledger.apply(event("X", "a", false, at: Int64(2 * round + 1)), at: F.referenceAt(offset + 1))
            offset += 2
        }
        #expect(ledger.collectDue(now: 998 + F.graceMilliseconds, gracePeriod: F.grace).isEmpty)
        #expect(ledger.collectDue(now: 999 + F.graceMilliseconds, gracePeriod: F.grace).map(\.unreferencedSince) == [999])
    }
}
