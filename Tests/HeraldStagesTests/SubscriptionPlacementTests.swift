import Foundation
import HeraldKafka
import HeraldModel
import HeraldApp
@testable import HeraldStages
import Testing

/// Where subscriptions and changes live (docs/ARCHITECTURE.md §9), and the match stage's
/// table of its partitions' subscriptions, without a broker.
@Suite("Subscription placement")
struct SubscriptionPlacementTests {
    private static let container = "iCloud.com.example.notes"
    private let placement = SubscriptionPlacement(partitions: 6)

    private static func change(_ database: DatabaseScope, owner: String, record: String = "r1", participants: [String]? = nil) -> RecordChange {
        RecordChange(
            changeID: "c-\(record)", container: container, database: database, zoneID: ZoneID(zoneName: "Notes", ownerRecordName: owner),
            recordType: "Note", recordName: record, kind: .create, fields: [:], timestamp: 0, participants: participants)
    }

    private static func subscription(_ id: String, _ database: DatabaseScope, owner: String) -> Subscription {
        database == .public
            ? Subscription(
                subscriptionID: id, subscriptionType: .query, container: container, database: .public, ownerRecordName: owner,
                query: SubscriptionQuery(recordType: "Note", predicate: "TRUEPREDICATE"), firesOn: [.create])
            : Subscription(subscriptionID: id, subscriptionType: .database, container: container, database: database, ownerRecordName: owner)
    }

    @Test("record changes are keyed by owner (private, shared) and by record (public)")
    func changeKeys() {
        #expect(Self.change(.private, owner: "_u1").partitionKey == "\(Self.container)/private/_u1")
        #expect(Self.change(.shared, owner: "_u1").partitionKey == "\(Self.container)/shared/_u1")
        #expect(Self.change(.public, owner: "_system", record: "item-7").partitionKey == "\(Self.container)/public/item-7")
        #expect(Self.change(.private, owner: "_u1").zoneKey == "\(Self.container)/private/_u1/Notes")
    }

    @Test("a private subscription lives on the partition of its owner's changes", arguments: ["_u1", "_u2", "a/b", "_zz9"])
    func privateWithOwner(owner: String) {
        let subscription = Self.subscription("s", .private, owner: owner)
        #expect(placement.partition(of: subscription) == placement.partition(of: Self.change(.private, owner: owner)))
        #expect(placement.fanOutPartitions(of: Self.change(.private, owner: owner)).isEmpty)
    }

    @Test("a public change reaches every partition once; a shared one its participants' partitions")
    func fanOut() {
        let publicChange = Self.change(.public, owner: "_system", record: "item-1")
        let own = placement.partition(of: publicChange)
        #expect(Set(placement.fanOutPartitions(of: publicChange) + [own]) == Set(0..<6))
        #expect(!placement.fanOutPartitions(of: publicChange).contains(own))
        let shared = Self.change(.shared, owner: "_u1", participants: ["_u2", "_u3", "_u1"])
        let reached = Set(placement.fanOutPartitions(of: shared) + [placement.partition(of: shared)])
        for participant in ["_u1", "_u2", "_u3"] {
            #expect(reached.contains(placement.partition(of: Self.subscription("s", .shared, owner: participant))))
        }
    }

    @Test("the table holds only its partitions; a misplaced record is kept aside, and indexed meanwhile where it belongs if held; an old epoch is ignored")
    func placedTable() throws {
        let codec = WireCodec()
        let subscription = Self.subscription("s", .private, owner: "_u1")
        let value = try codec.encode(subscription)
        let home = placement.partition(of: subscription)
        let other = (home + 1) % 6
        // Only the wrong partition held: the record waits for re-placement, indexed nowhere.
        let alone = PlacedSubscriptionTable(partitions: 6)
        alone.hold([other])
        try alone.apply(partition: other, epoch: alone.heldPartitions[other]!, key: subscription.partitionKey, value: value)
        #expect(alone.count == 0)
        #expect(alone.takeMisplaced(partition: other, epoch: alone.heldPartitions[other]!).map(\.placement) == [home])

        let table = PlacedSubscriptionTable(partitions: 6)
        table.hold([home, other])
        let epochs = table.heldPartitions
        try table.apply(partition: other, epoch: try #require(epochs[other]), key: subscription.partitionKey, value: value)
        #expect(table.counts == [home: 1, other: 0], "indexed where it belongs, held here too")
        #expect(table.takeMisplaced(partition: other, epoch: epochs[other]!).map(\.placement) == [home])
        try table.apply(partition: home, epoch: epochs[home]! + 100, key: subscription.partitionKey, value: nil)
        #expect(table.count == 1, "a record of another epoch is ignored")
        try table.apply(partition: home, epoch: epochs[home]!, key: subscription.partitionKey, value: value)
        #expect(table.counts == [home: 1, other: 0])
        #expect(!table.isLoaded(home))
        table.markLoaded(partition: home, epoch: epochs[home]!)
        #expect(table.isLoaded(home))
        let change = Self.change(.private, owner: "_u1")
        #expect(table.matches(for: change, on: home).count == 1)
        #expect(table.matches(for: change, on: other).isEmpty)
        // The copy's tombstone (after re-placement) leaves the record read on its placement.
        try table.apply(partition: other, epoch: epochs[other]!, key: subscription.partitionKey, value: nil)
        #expect(table.count == 1)
        table.release([home])
        #expect(table.count == 0)
        #expect(table.heldPartitions.keys.sorted() == [other])
    }

    @Test("a misplaced copy's tombstone removes the copy it indexed")
    func copyTombstone() throws {
        let subscription = Self.subscription("s", .private, owner: "_u1")
        let home = placement.partition(of: subscription)
        let other = (home + 1) % 6
        let table = PlacedSubscriptionTable(partitions: 6)
        table.hold([home, other])
        let epochs = table.heldPartitions
        try table.apply(partition: other, epoch: epochs[other]!, key: subscription.partitionKey, value: try WireCodec().encode(subscription))
        #expect(table.count == 1)
        try table.apply(partition: other, epoch: epochs[other]!, key: subscription.partitionKey, value: nil)
        #expect(table.count == 0)
    }

    @Test("the API's table keeps the placed record over a misplaced copy, in either order")
    func apiTablePrefersPlacement() throws {
        let codec = WireCodec()
        let placed = Self.subscription("s", .private, owner: "_u1")
        var stale = placed
        stale.notificationInfo.alertBody = "stale"
        let home = SubscriptionPlacement(partitions: 6).partition(of: placed)
        let other = (home + 1) % 6
        for staleFirst in [true, false] {
            let table = SubscriptionTable(partitions: 6)
            let records: [(Int32, Data?)] = staleFirst
                ? [(other, try codec.encode(stale)), (home, try codec.encode(placed)), (other, nil)]
                : [(home, try codec.encode(placed)), (other, try codec.encode(stale)), (other, nil)]
            for (partition, value) in records { try table.apply(key: placed.partitionKey, value: value, partition: partition) }
            #expect(table.subscription(forKey: placed.partitionKey) == placed, "stale first: \(staleFirst)")
        }
    }

    @Test("retiring a subscription indexed from a misplaced copy stops its re-placement and names the copy's partition")
    func retireCopy() throws {
        let subscription = Self.subscription("s", .private, owner: "_u1")
        let key = subscription.partitionKey
        let home = placement.partition(of: subscription)
        let other = (home + 1) % 6
        let table = PlacedSubscriptionTable(partitions: 6)
        table.hold([home, other])
        let epochs = table.heldPartitions
        try table.apply(partition: other, epoch: epochs[other]!, key: key, value: try WireCodec().encode(subscription))
        #expect(table.remove(key: key, on: home) == [other])
        #expect(table.count == 0)
        #expect(table.takeMisplaced(partition: other, epoch: epochs[other]!).isEmpty, "no longer re-placed")
        #expect(table.takeRetired(among: [key]) == [key])
        #expect(table.takeRetired(among: [key]).isEmpty)
    }

    @Test("the migration re-places a record off its placement, unless its placement already holds one")
    func migrationReplaces() throws {
        let codec = WireCodec()
        let moved = Self.subscription("moved", .private, owner: "_u1")
        let kept = Self.subscription("kept", .private, owner: "_u2")
        let home = { (subscription: Subscription) in self.placement.partition(of: subscription) }
        func record(_ subscription: Subscription, on partition: Int32, offset: Int64) throws -> ConsumedMessage {
            ConsumedMessage(
                topicPartition: TopicPartition("subs", partition), offset: offset, key: Data(subscription.partitionKey.utf8),
                value: try codec.encode(subscription))
        }
        var migration = SubscriptionKeyMigration()
        migration.read(try record(moved, on: (home(moved) + 1) % 6, offset: 0))
        migration.read(try record(kept, on: (home(kept) + 2) % 6, offset: 1))
        migration.read(try record(kept, on: home(kept), offset: 2))
        let (republish, tombstones, report) = migration.plan(topic: "subs", placement: placement)
        #expect(republish.map { "\($0.key.map { String(decoding: $0, as: UTF8.self) } ?? "")@\($0.partition ?? -1)" }
            == ["\(moved.partitionKey)@\(home(moved))"])
        #expect(Set(tombstones.map { $0.partition ?? -1 }) == [(home(moved) + 1) % 6, (home(kept) + 2) % 6])
        #expect(report.replaced == 2)
        #expect(report.current == 1)
    }

    @Test("1st, 10th, 100th misrouted changes are logged", arguments: [(1, true), (2, false), (10, true), (99, false), (100, true), (1000, true)])
    func misroutedLogging(count: Int, logged: Bool) {
        #expect(MisroutedChanges.isLogged(count) == logged)
    }
}
