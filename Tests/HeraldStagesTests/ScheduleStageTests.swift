import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldStages
import HeraldTestSupport
import Testing

/// Schedules → schedule stage (virtual time) → compose → notifications, in the process
/// `herald run` builds (`HeraldApp.buildRuntime`), on the embedded broker.
@Suite("Schedule stage", .timeLimit(.minutes(5)))
struct ScheduleStageTests {
    private let container = "iCloud.com.example.clock"
    // 2026-03-28T12:00Z, the day before Paris springs forward.
    private let start: Int64 = 1_774_699_200_000

    private func schedule(_ id: String, _ members: String) -> OutgoingMessage {
        let key = "\(container)/_u1/\(id)"
        return OutgoingMessage(
            topic: "", partition: nil, key: key,
            value: Data(#"{"scheduleID": "\#(id)", "container": "\#(container)", "recipient": "_u1", \#(members)}"#.utf8))
    }

    private func location(latitude: Double, longitude: Double, at timestamp: Int64) -> Data {
        Data(#"{"recipient": "_u1", "container": "\#(container)", "latitude": \#(latitude), "longitude": \#(longitude), "timestamp": \#(timestamp)}"#.utf8)
    }

    /// A runtime of the schedule and compose stages on `clock`, looking for due schedules
    /// every 50 ms.
    private func configuration(_ fixture: PipelineFixture, clock: VirtualClock) -> HeraldConfiguration {
        var configuration = fixture.runtimeConfiguration([.schedule, .compose])
        configuration.clock = { clock.now }
        configuration.scheduleTickInterval = .milliseconds(50)
        return configuration
    }

    /// The first `count` firings, waiting up to a minute (a loaded machine joins groups
    /// slowly); when fewer came, the failure says what the stages logged meanwhile.
    private func firings(
        _ fixture: PipelineFixture, count: Int, readiness: Readiness? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [ScheduledFiring] {
        let messages = try await fixture.read(fixture.catalog.name(TopicCatalog.scheduleFirings), count: count, timeout: .seconds(60))
        if messages.count < count {
            let conditions = readiness.map { "\($0.conditions.sorted { $0.key < $1.key })" } ?? "-"
            Issue.record(
                "\(messages.count) of \(count) firings within 60 s; readiness \(conditions); recent log:\n\(fixture.recentLog.text)",
                sourceLocation: sourceLocation)
        }
        return try messages
            .map { try WireCodec().decode(ScheduledFiring.self, from: $0.value ?? Data()) }
            .sorted { ($0.fireDate, $0.scheduleID) < ($1.fireDate, $1.scheduleID) }
    }

    @Test("due, immediate, region and daily-across-DST firings each happen once, through a restart and a duplicated firing")
    func firingsHappenOnce() async throws {
        let fixture = try await PipelineFixture(partitions: 3)
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let clock = VirtualClock(start)
        let partition = KeyPartitioner.partition(of: "_u1", partitions: catalog.partitions)
        func placed(_ message: OutgoingMessage, on partition: Int32) -> OutgoingMessage {
            var message = message
            message.topic = catalog.name(TopicCatalog.schedules)
            message.partition = partition
            return message
        }
        _ = try await producer.send([
            OutgoingMessage(topic: catalog.name(TopicCatalog.users), key: "_u1",
                            value: Data(#"{"userRecordName": "_u1", "timeZone": "Europe/Paris"}"#.utf8)),
            // Daily at 02:30 Paris from 2026-03-28 (already past: fires at once), then 03:30 on the 29th (the gap).
            placed(schedule("daily", #""fireDate": 1774661400000, "timeZone": "Europe/Paris", "repeatInterval": "day", "alertBody": "Wake up, 100%% sure", "applicationIconBadgeNumber": 3"#), on: partition),
            placed(schedule("ping", #""fireDate": "2026-03-28T11:00:00Z", "alertBody": "Ping""#), on: partition),
            placed(schedule("geo", #""region": {"latitude": 48.8566, "longitude": 2.3522, "radius": 1000, "notifyOnExit": false}, "alertBody": "Welcome to Paris""#), on: partition),
            placed(schedule("misplaced", #""alertBody": "wrong partition""#), on: (partition + 1) % catalog.partitions),
        ])

        try await fixture.withRuntime(configuration(fixture, clock: clock)) { runtime in
            let readiness = runtime.readiness
            var fired = try await firings(fixture, count: 2, readiness: readiness)
            #expect(fired.map(\.scheduleID) == ["daily", "ping"])
            #expect(fired.map(\.trigger) == [.immediate, .immediate])
            #expect(fired.map(\.fireDate) == [1_774_661_400_000, 1_774_695_600_000])

            // Outside, then inside the region: one entry.
            let locations = catalog.name(TopicCatalog.locations)
            _ = try await producer.send([
                OutgoingMessage(topic: locations, key: "_u1", value: location(latitude: 45.76, longitude: 4.83, at: start + 1_000)),
                OutgoingMessage(topic: locations, key: "_u1", value: location(latitude: 48.8570, longitude: 2.3530, at: start + 2_000)),
            ])
            fired = try await firings(fixture, count: 3, readiness: readiness)
            #expect(fired.count == 3)
            #expect(fired.last?.scheduleID == "geo" && fired.last?.trigger == .regionEntry && fired.last?.fireDate == start + 2_000)

            // The 29th, 02:00Z: 02:30 Paris did not exist; the daily alarm rang at 03:30 CEST = 01:30Z.
            clock.set(1_774_749_600_000)
            fired = try await firings(fixture, count: 4, readiness: readiness)
            #expect(fired.filter { $0.scheduleID == "daily" }.map(\.fireDate) == [1_774_661_400_000, 1_774_747_800_000])
        }

        // Restart later: restored from the changelog, the next occurrence fires once, none again.
        clock.set(1_774_832_400_000)
        let readiness = try await fixture.withRuntime(configuration(fixture, clock: clock)) { runtime in
            let readiness = runtime.readiness
            let fired = try await firings(fixture, count: 5, readiness: readiness)
            #expect(fired.filter { $0.scheduleID == "daily" }.map(\.fireDate) == [1_774_661_400_000, 1_774_747_800_000, 1_774_830_600_000])
            // A firing delivered twice (as after a crash between a firing and its state) is sent once.
            let again = try await fixture.read(catalog.name(TopicCatalog.scheduleFirings), count: 5)
            _ = try await producer.send([OutgoingMessage(
                topic: catalog.name(TopicCatalog.scheduleFirings), key: "_u1", value: again[again.count - 1].value)])
            let consumed = try await fixture.waitUntilCommitted(
                group: HeraldStage.compose.groupID(prefix: catalog.prefix), HeraldStage.compose.inputTopics.map(catalog.name),
                timeout: .seconds(60))
            #expect(consumed, "compose consumed the duplicated firing; recent log:\n\(fixture.recentLog.text)")
            return readiness
        }
        let all = try await firings(fixture, count: 6, readiness: readiness)
        #expect(all.count == 6)
        #expect(Set(all.map(\.firingID)).count == 5)

        let notifications = try await fixture.read(catalog.name(TopicCatalog.notifications), count: 5, timeout: .seconds(10))
            .map { try WireCodec().decode(HeraldNotification.self, from: $0.value ?? Data()) }
        #expect(notifications.count == 5)
        #expect(notifications.map(\.sequence).sorted() == [1, 2, 3, 4, 5])
        #expect(notifications.allSatisfy { $0.notificationType == .scheduled })
        let daily = notifications.filter { $0.scheduleID == "daily" }
        #expect(daily.count == 3 && daily.allSatisfy { $0.badge == 3 && $0.rendered?.body == "Wake up, 100% sure" })

        // Finished schedules are tombstoned in `schedules` (ping fired once, geo triggered once);
        // the misplaced one went to dead letters with the reason.
        let schedules = try await fixture.read(catalog.name(TopicCatalog.schedules), count: 6, timeout: .seconds(10))
        let tombstones = Set(schedules.filter { $0.value == nil }.compactMap(\.keyString))
        #expect(tombstones == ["\(container)/_u1/ping", "\(container)/_u1/geo"])
        let deadLetters = try await fixture.read(catalog.name(TopicCatalog.deadLetters), count: 1, timeout: .seconds(10))
            .compactMap(DeadLetter.Record.init)
        #expect(deadLetters.count == 1)
        #expect(deadLetters.first?.reason.contains("belongs on partition \(partition)") == true)
        await producer.close()
    }

    @Test("an alarm written at 02:30 on the Paris gap day fires at 03:30 that day and 02:30 the next, through a restart")
    func gapDayAlarm() async throws {
        let fixture = try await PipelineFixture(partitions: 1)
        let catalog = fixture.catalog
        let producer = try fixture.producer()
        let clock = VirtualClock(start)
        var gap = schedule("gap", #""fireDate": "2026-03-29T02:30:00", "timeZone": "Europe/Paris", "repeatInterval": "day""#)
        gap.topic = catalog.name(TopicCatalog.schedules)
        _ = try await producer.send([
            OutgoingMessage(topic: catalog.name(TopicCatalog.users), key: "_u1",
                            value: Data(#"{"userRecordName": "_u1", "timeZone": "Europe/Paris"}"#.utf8)),
            gap,
        ])
        try await fixture.withRuntime(configuration(fixture, clock: clock)) { runtime in
            // The 29th, 02:00Z: 02:30 did not exist; it rang at 03:30 CEST = 01:30Z.
            clock.set(1_774_749_600_000)
            let fired = try await firings(fixture, count: 1, readiness: runtime.readiness)
            #expect(fired.map(\.fireDate) == [1_774_747_800_000])
        }
        // Restored from the changelog on the 30th, 01:00Z: 02:30 CEST (00:30Z) again, not 03:30.
        clock.set(1_774_832_400_000)
        try await fixture.withRuntime(configuration(fixture, clock: clock)) { runtime in
            let fired = try await firings(fixture, count: 2, readiness: runtime.readiness)
            #expect(fired.map(\.fireDate) == [1_774_747_800_000, 1_774_830_600_000])
        }
        await producer.close()
    }
}
