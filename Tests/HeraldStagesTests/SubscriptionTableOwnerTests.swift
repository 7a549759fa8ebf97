import Foundation
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// Listing one owner's subscriptions reads that owner's keys only; it must list exactly what
/// a scan of the whole table finds, through upserts, tombstones, old keys and misplaced copies.
@Suite("Subscription table: one owner's subscriptions")
struct SubscriptionTableOwnerTests {
    typealias F = SubscriptionFixtures

    private static let owners = ["_u1", "_u2", "_u3"]

    private static func subscription(_ id: String, owner: String, database: DatabaseScope, priority: Int) -> Subscription {
        Subscription(
            subscriptionID: id, subscriptionType: .query, container: F.container, database: database, ownerRecordName: owner,
            query: SubscriptionQuery(recordType: "Note", predicate: "priority > \(priority)"), firesOn: [.create])
    }

    private static func scanned(_ table: SubscriptionTable, database: DatabaseScope, owner: String) -> [Subscription] {
        table.withIndex { $0.all }
            .filter { $0.container == F.container && $0.database == database && $0.ownerRecordName == owner }
            .sorted { $0.subscriptionID < $1.subscriptionID }
    }

    @Test("random records, tombstones and old keys: the owner's list equals a scan of the table", arguments: 0..<4)
    func listsAsAScan(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let table = SubscriptionTable(partitions: 3)
        let codec = WireCodec()
        for _ in 0..<400 {
            let owner = Self.owners.randomElement(using: &random)!
            let database: DatabaseScope = Bool.random(using: &random) ? .public : .private
            let id = "s\(Int.random(in: 0..<6, using: &random))"
            let subscription = Self.subscription(id, owner: owner, database: database, priority: Int.random(in: 0..<40, using: &random))
            let oldKey = database == .public && Int.random(in: 0..<4, using: &random) == 0
            let key = oldKey ? subscription.legacyPartitionKey : subscription.partitionKey
            let value = Int.random(in: 0..<4, using: &random) == 0 ? nil : try codec.encode(subscription)
            // Duplicates and the like are refused; the table is then unchanged.
            try? table.apply(key: key, value: value, partition: Int32.random(in: 0..<3, using: &random))
            if Int.random(in: 0..<10, using: &random) == 0 { table.remove(key: subscription.partitionKey) }
            for owner in Self.owners {
                for database in [DatabaseScope.public, .private] {
                    #expect(
                        table.subscriptions(container: F.container, database: database, owner: owner)
                            == Self.scanned(table, database: database, owner: owner))
                }
            }
        }
        #expect(table.count > 0)
    }
}
