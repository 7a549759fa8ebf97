import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// Subscriptions saved while their owner's partition moves (a second match instance joins
/// the group mid-save) end up loaded by the instance that holds that partition afterwards,
/// and fire there (docs/ARCHITECTURE.md §9).
@Suite("Match stage: saves during a rebalance", .timeLimit(.minutes(5)))
struct PlacementRebalanceTests {
    private static let container = "iCloud.com.example.notes"

    private static func subscription(owner: String) -> Subscription {
        Subscription(
            subscriptionID: "notes", subscriptionType: .query, container: container, database: .private, ownerRecordName: owner,
            query: SubscriptionQuery(recordType: "Note", predicate: "TRUEPREDICATE"), firesOn: [.create],
            notificationInfo: NotificationInfo(alertBody: "note"))
    }

    @Test("every subscription saved across a rebalance is held by its partition's new owner, once, and fires")
    func savedDuringRebalance() async throws {
        let fixture = try await PipelineFixture(partitions: 4)
        let catalog = fixture.catalog
        let placement = SubscriptionPlacement(partitions: catalog.partitions)
        let codec = WireCodec()
        let producer = try fixture.producer()
        let candidates = (0..<400).map { "_r\($0)" }
        func save(_ owners: ArraySlice<String>) async throws {
            _ = try await producer.send(try owners.map {
                let subscription = Self.subscription(owner: $0)
                return OutgoingMessage(
                    topic: catalog.name(TopicCatalog.subscriptions), partition: placement.partition(of: subscription),
                    key: subscription.partitionKey, value: try codec.encode(subscription))
            })
        }
        let runtimes = try await [0, 1].asyncMap { index in
            var configuration = fixture.runtimeConfiguration([.match])
            configuration.instanceID = "r\(index)"
            return try await HeraldApp.buildRuntime(configuration, environment: fixture.environment, catalog: catalog, logger: fixture.logger)
        }
        let tables = try runtimes.map { try #require($0.matchTable) }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtimes[0].run() }
            do {
                try await save(candidates[0..<8])
                let first = try await Wait.until(timeout: .seconds(60)) { tables[0].heldPartitions.count == 4 && tables[0].isReady }
                try #require(first, "the first instance holds every partition")
                // The second instance joins; saves go on until it holds partitions, and a while after.
                tasks.addTask { try await runtimes[1].run() }
                var saved = 8
                var afterJoin = 0
                while afterJoin < 6, saved + 2 <= candidates.count {
                    try await save(candidates[saved..<saved + 2])
                    saved += 2
                    if !tables[1].heldPartitions.isEmpty { afterJoin += 1 }
                    try await Task.sleep(for: .milliseconds(50))
                }
                try #require(afterJoin == 6, "the second instance joined while subscriptions were saved")
                let owners = Array(candidates[0..<saved])
                let settled = try await Wait.until(timeout: .seconds(90), every: .milliseconds(100)) {
                    tables.allSatisfy { $0.heldPartitions.count == 2 && $0.isReady } && tables[0].count + tables[1].count == owners.count
                }
                #expect(settled, "held: \(tables.map { $0.heldPartitions.keys.sorted() }), counts \(tables.map(\.count))")
                for owner in owners {
                    let subscription = Self.subscription(owner: owner)
                    let partition = placement.partition(of: subscription)
                    let holders = tables.filter {
                        $0.withIndex(on: partition) { $0.subscription(forKey: subscription.partitionKey) != nil } == true
                    }
                    #expect(holders.count == 1, "\(owner) (partition \(partition)) is held once")
                }
                // Each owner's change fires their subscription.
                _ = try await producer.send(try owners.enumerated().map { index, owner in
                    let change = RecordChange(
                        changeID: "c\(index)", container: Self.container, database: .private,
                        zoneID: ZoneID(zoneName: "Notes", ownerRecordName: owner), recordType: "Note", recordName: "n\(index)",
                        kind: .create, fields: [:], timestamp: 1_795_300_000_000)
                    return OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: change.partitionKey, value: try codec.encode(change))
                })
                let matches = try await fixture.read(catalog.name(TopicCatalog.matches), count: owners.count, timeout: .seconds(60))
                #expect(Set(matches.compactMap(\.keyString)) == Set(owners))
            } catch {
                for runtime in runtimes { await runtime.triggerGracefulShutdown() }
                try? await tasks.waitForAll()
                throw error
            }
            for runtime in runtimes { await runtime.triggerGracefulShutdown() }
            try await tasks.waitForAll()
        }
        await producer.close()
    }
}
