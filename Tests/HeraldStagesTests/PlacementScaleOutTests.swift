import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// Scale-out of the match stage (docs/ARCHITECTURE.md §9): K = 1, 2 and 4 match instances —
/// members of one consumer group, each a process as `herald run --stages match` builds it —
/// over the same placed subscriptions and the same private, shared and public changes. Each
/// holds only its partitions' subscriptions, and together they fire exactly what one
/// instance fires.
@Suite("Match stage scale-out", .timeLimit(.minutes(6)))
struct PlacementScaleOutTests {
    private static let container = "iCloud.com.example.notes"
    private static let owners = (0..<12).map { "_u\($0)" }
    private static let partitions: Int32 = 4

    /// Private query and database subscriptions of every owner, shared database
    /// subscriptions of half of them, public query subscriptions of some.
    private static func subscriptions() -> [Subscription] {
        var result: [Subscription] = []
        for (index, owner) in owners.enumerated() {
            result.append(Subscription(
                subscriptionID: "urgent", subscriptionType: .query, container: container, database: .private, ownerRecordName: owner,
                query: SubscriptionQuery(recordType: "Note", predicate: "priority >= \(index % 3)"), firesOn: [.create, .update],
                notificationInfo: NotificationInfo(alertBody: "urgent")))
            result.append(Subscription(
                subscriptionID: "everything", subscriptionType: .database, container: container, database: .private, ownerRecordName: owner,
                notificationInfo: NotificationInfo(shouldSendContentAvailable: true)))
            if index % 2 == 0 {
                result.append(Subscription(
                    subscriptionID: "shared", subscriptionType: .database, container: container, database: .shared, ownerRecordName: owner,
                    notificationInfo: NotificationInfo(shouldSendContentAvailable: true)))
            }
            if index % 3 == 0 {
                result.append(Subscription(
                    subscriptionID: "public-\(index % 4)", subscriptionType: .query, container: container, database: .public,
                    ownerRecordName: owner, query: SubscriptionQuery(recordType: "Item", predicate: "category == 'c\(index % 4)'"),
                    firesOn: [.create], notificationInfo: NotificationInfo(alertBody: "new item")))
            }
        }
        return result
    }

    private static func changes() -> [RecordChange] {
        var generator = SeededGenerator(seed: 14)
        var result: [RecordChange] = []
        for number in 0..<40 {
            let owner = owners.randomElement(using: &generator)!
            result.append(RecordChange(
                changeID: "p\(number)", container: container, database: .private, zoneID: ZoneID(zoneName: "Notes", ownerRecordName: owner),
                recordType: "Note", recordName: "n\(number)", kind: .create,
                fields: ["priority": .int64(Int64.random(in: 0...3, using: &generator))], timestamp: 1_795_300_000_000))
        }
        for number in 0..<12 {
            result.append(RecordChange(
                changeID: "q\(number)", container: container, database: .public, zoneID: ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_system"),
                recordType: "Item", recordName: "i\(number)", kind: .create,
                fields: ["category": .string("c\(number % 5)")], timestamp: 1_795_300_000_000))
        }
        for number in 0..<12 {
            let sharer = owners.randomElement(using: &generator)!
            let participants = Array(owners.shuffled(using: &generator).prefix(3))
            result.append(RecordChange(
                changeID: "s\(number)", container: container, database: .shared, zoneID: ZoneID(zoneName: "Trip", ownerRecordName: sharer),
                recordType: "Note", recordName: "t\(number)", kind: .update, fields: [:], timestamp: 1_795_300_000_000,
                participants: participants))
        }
        return result
    }

    /// What K instances hold once the group is settled, and every match they produced
    /// (`recipient/notificationID`, without the duplicates a rebalance may cause).
    private struct Run {
        var held: [[Int32]] = []
        var counts: [Int] = []
        var matches: Set<String> = []
    }

    private func run(instances: Int) async throws -> Run {
        let fixture = try await PipelineFixture(partitions: Self.partitions)
        let catalog = fixture.catalog
        let placement = SubscriptionPlacement(partitions: catalog.partitions)
        let codec = WireCodec()
        let producer = try fixture.producer()
        _ = try await producer.send(try Self.subscriptions().map {
            OutgoingMessage(
                topic: catalog.name(TopicCatalog.subscriptions), partition: placement.partition(of: $0), key: $0.partitionKey,
                value: try codec.encode($0))
        })
        let runtimes = try await (0..<instances).asyncMap { index in
            var configuration = fixture.runtimeConfiguration([.match])
            configuration.instanceID = "m\(index)"
            return try await HeraldApp.buildRuntime(configuration, environment: fixture.environment, catalog: catalog, logger: fixture.logger)
        }
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            for runtime in runtimes { tasks.addTask { try await runtime.run() } }
            do {
                let result = try await measure(runtimes, fixture: fixture, producer: producer)
                for runtime in runtimes { await runtime.triggerGracefulShutdown() }
                try await tasks.waitForAll()
                await producer.close()
                return result
            } catch {
                for runtime in runtimes { await runtime.triggerGracefulShutdown() }
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    private func measure(_ runtimes: [HeraldRuntime], fixture: PipelineFixture, producer: KafkaProducer) async throws -> Run {
        let catalog = fixture.catalog
        let tables = try runtimes.map { try #require($0.matchTable) }
        let share = Int(catalog.partitions) / runtimes.count
        // Settled: every instance holds its share of the partitions, loaded, and together all of them.
        let settled = try await Wait.until(timeout: .seconds(120), every: .milliseconds(100)) {
            let held = tables.map { Set($0.heldPartitions.keys) }
            return held.allSatisfy { $0.count == share } && held.reduce(into: Set<Int32>()) { $0.formUnion($1) }.count == Int(catalog.partitions)
                && tables.allSatisfy(\.isReady)
        }
        try #require(settled, "the group settled: \(tables.map { $0.heldPartitions.keys.sorted() }) \(fixture.recentLog.text)")
        let codec = WireCodec()
        _ = try await producer.send(try Self.changes().map {
            OutgoingMessage(topic: catalog.name(TopicCatalog.recordChanges), key: $0.partitionKey, value: try codec.encode($0))
        })
        let group = HeraldStage.match.groupID(prefix: catalog.prefix)
        try #require(try await fixture.waitUntilCommitted(group: group, [catalog.name(TopicCatalog.recordChanges)], timeout: .seconds(90)))
        try #require(try await fixture.waitUntilCommitted(group: group, [catalog.name(TopicCatalog.changeFanout)], timeout: .seconds(90)))
        var run = Run()
        run.held = tables.map { $0.heldPartitions.keys.sorted() }
        run.counts = tables.map(\.count)
        for message in try await fixture.readToEnd(catalog.name(TopicCatalog.matches)) {
            let match = try Match(matchesValue: try #require(message.value))
            run.matches.insert("\(match.recipient)/\(match.notificationID)")
        }
        return run
    }

    @Test("K = 1, 2 and 4 instances: each holds only its partitions' subscriptions; together they fire what one fires")
    func unionEqualsSingleInstance() async throws {
        let total = Self.subscriptions().count
        let single = try await run(instances: 1)
        print("scale-out K=1: instance 0 holds partitions \(single.held[0]), \(single.counts[0]) of \(total) subscriptions; \(single.matches.count) matches")
        #expect(single.counts == [total])
        #expect(single.matches.count > 40, "private, shared and public changes fired: \(single.matches.count)")
        for instances in [2, 4] {
            let scaled = try await run(instances: instances)
            for (index, held) in scaled.held.enumerated() {
                print("scale-out K=\(instances): instance \(index) holds partitions \(held), \(scaled.counts[index]) of \(total) subscriptions")
            }
            #expect(scaled.counts.reduce(0, +) == total, "K=\(instances): every subscription held once")
            #expect(scaled.counts.allSatisfy { $0 < total }, "K=\(instances): no instance holds them all")
            #expect(scaled.matches == single.matches, "K=\(instances): missing \(single.matches.subtracting(scaled.matches).sorted()), extra \(scaled.matches.subtracting(single.matches).sorted())")
        }
    }
}
