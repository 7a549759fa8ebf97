import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Schedule routes: an alarm written in a daylight-saving gap (issue 16)")
struct ScheduleGapRouteTests {
    typealias H = APITestHarness

    @Test("nextFireDate of a daily 02:30 Paris alarm written on the gap day is 02:30, not 03:30")
    func gapDayAlarm() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body: JSONValue = [
            "scheduleID": "gap", "fireDate": "2026-03-29T02:30:00", "timeZone": "Europe/Paris", "repeatInterval": "day",
            "alertBody": "Wake up",
        ]
        try await harness.application().test(.router) { client in
            let post = try await ScheduleRoutesTests.post(client, body, headers: headers)
            #expect(post.status == .created, "\(post.text)")
            let view = try #require(try ScheduleRoutesTests.json(post)["schedule"])
            #expect(view["fireDate"] == "2026-03-29T01:30:00Z")
            #expect(view["wallClockFireDate"] == "2026-03-29T02:30:00")
            // The clock reads 2026-11-21T22:26:40Z (23:26 CET): next is 02:30 CET on Nov 22, as `herald schedule next` says.
            #expect(view["nextFireDate"] == "2026-11-22T01:30:00Z")
            guard case .schedule(let published)? = harness.publisher.messages.first else {
                Issue.record("nothing published")
                return
            }
            // 2026-03-29T02:30:00 read in UTC: the nominal wall-clock time.
            #expect(published.wallClockFireDate.map(ISO8601Instant.format) == "2026-03-29T02:30:00Z")
        }
    }
}
