import Foundation
import HeraldModel
import HeraldScheduler
import Testing

@Suite("Region schedules: crossings as Core Location reports them")
struct RegionTests {
    /// 200 m around the Eiffel Tower.
    static let tower = ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200)
    static let inside = (48.8590, 2.2950)
    /// About 1.1 km north-east.
    static let outside = (48.8660, 2.3050)

    static func location(_ point: (Double, Double), at seconds: Int64, container: String = "iCloud.com.example.clock") -> DeviceLocation {
        DeviceLocation(
            recipient: "_u1", container: container, latitude: point.0, longitude: point.1,
            timestamp: 1_780_000_000_000 + seconds * 1000)
    }

    /// Arms `schedule`, then applies the points in order; returns the triggers fired and the final state.
    static func run(
        _ schedule: Schedule, _ points: [((Double, Double), Int64)]
    ) -> (triggers: [ScheduledFiring.Trigger?], state: UserSchedules) {
        var state = UserSchedules(recipient: "_u1")
        _ = state.apply(schedule, at: .init(topic: "schedules", partition: 0, offset: 0), now: 0, userZone: nil)
        var triggers: [ScheduledFiring.Trigger?] = []
        for (offset, (point, seconds)) in points.enumerated() {
            let outcome = state.observe(location(point, at: seconds), at: .init(topic: "locations", partition: 0, offset: Int64(offset)))
            #expect(outcome.firings.count <= 1)
            triggers.append(outcome.firings.first?.trigger)
            if let firing = outcome.firings.first {
                #expect(firing.fireDate == 1_780_000_000_000 + seconds * 1000)
                #expect(firing.firingID == ScheduledFiring.firingID(
                    container: schedule.container, recipient: "_u1", scheduleID: schedule.scheduleID, instant: firing.fireDate))
            }
        }
        return (triggers, state)
    }

    @Test("haversine distances: Paris–London, a point, the antipodes")
    func distances() {
        #expect(RegionTracker.contains(ScheduleRegion(latitude: 48.8566, longitude: 2.3522, radius: 343_600), latitude: 51.5074, longitude: -0.1278))
        #expect(!RegionTracker.contains(ScheduleRegion(latitude: 48.8566, longitude: 2.3522, radius: 343_400), latitude: 51.5074, longitude: -0.1278))
        #expect(RegionTracker.contains(Self.tower, latitude: Self.inside.0, longitude: Self.inside.1))
        #expect(!RegionTracker.contains(Self.tower, latitude: Self.outside.0, longitude: Self.outside.1))
        #expect(!RegionTracker.contains(ScheduleRegion(latitude: 0, longitude: 0, radius: 1_000_000), latitude: 0, longitude: 180))
    }

    @Test("the first location only establishes the state; entry then fires once by default")
    func firstLocationIsSilent() {
        let schedule = Support.schedule("tower", region: Self.tower)
        var (triggers, state) = Self.run(schedule, [(Self.inside, 0)])
        #expect(triggers == [nil])
        (triggers, state) = Self.run(schedule, [(Self.outside, 0), (Self.outside, 10), (Self.inside, 20), (Self.outside, 30), (Self.inside, 40)])
        #expect(triggers == [nil, nil, .regionEntry, nil, nil])
        #expect(state.schedules.isEmpty)
    }

    @Test("exit fires when notifyOnExit; entry does not when notifyOnEntry is false")
    func flags() {
        var region = Self.tower
        region.notifyOnEntry = false
        let schedule = Support.schedule("tower", region: region, regionTriggersOnce: false)
        let (triggers, state) = Self.run(schedule, [(Self.outside, 0), (Self.inside, 10), (Self.outside, 20), (Self.inside, 30), (Self.outside, 40)])
        #expect(triggers == [nil, nil, .regionExit, nil, .regionExit])
        #expect(state.schedules.count == 1)
    }

    @Test("without regionTriggersOnce every qualifying crossing fires")
    func everyCrossing() {
        let schedule = Support.schedule("tower", region: Self.tower, regionTriggersOnce: false)
        let (triggers, _) = Self.run(schedule, [(Self.inside, 0), (Self.outside, 10), (Self.inside, 20), (Self.inside, 30), (Self.outside, 40)])
        #expect(triggers == [nil, .regionExit, .regionEntry, nil, .regionExit])
    }

    @Test("a location older than the last one applied is ignored")
    func outOfOrder() {
        let schedule = Support.schedule("tower", region: Self.tower, regionTriggersOnce: false)
        let (triggers, state) = Self.run(schedule, [(Self.outside, 100), (Self.inside, 50), (Self.outside, 150), (Self.inside, 150)])
        #expect(triggers == [nil, nil, nil, .regionEntry])
        #expect(state.schedules.values.first?.region == RegionTracker(inside: true, lastTimestamp: 1_780_000_150_000))
    }

    @Test("locations of another container, or of another user, are not seen")
    func otherContainer() {
        var state = UserSchedules(recipient: "_u1")
        _ = state.apply(Support.schedule("tower", region: Self.tower), at: .init(topic: "schedules", partition: 0, offset: 0), now: 0, userZone: nil)
        let position = { (offset: Int64) in InputPosition(topic: "locations", partition: 0, offset: offset) }
        #expect(state.observe(Self.location(Self.outside, at: 0), at: position(0)).isEmpty)
        #expect(state.observe(Self.location(Self.inside, at: 1, container: "other"), at: position(1)).isEmpty)
        var stranger = Self.location(Self.inside, at: 2)
        stranger.recipient = "_u2"
        #expect(state.observe(stranger, at: position(2)).isEmpty)
        let entry = state.observe(Self.location(Self.inside, at: 3), at: position(3))
        #expect(entry.firings.map(\.trigger) == [.regionEntry])
        #expect(entry.finished == ["iCloud.com.example.clock/_u1/tower"])
        #expect(state.observe(Self.location(Self.outside, at: 4), at: position(3)) == .replay)
    }
}
