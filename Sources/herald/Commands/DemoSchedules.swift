import Foundation
import HeraldModel

/// The scheduled-notification part of `herald demo`: a reminder due now, a daily alarm, a
/// region schedule and two device locations, all over HTTP as `_alice`; then the
/// notifications the schedule stage fired into her stream.
struct DemoSchedules {
    let client: APIClient
    let container: String
    let say: (String) -> Void

    func play(fetch: (String?) async throws -> [String: Any]) async throws {
        let before = try await fetch(nil)
        let after = before["serverChangeToken"] as? String
        say("\n9. Scheduled notifications (POST …/schedules and …/locations as _alice):")
        try await post("schedules", [
            "scheduleID": "summary", "alertTitle": "Weekly summary", "alertBody": "Your summary is 100%% ready",
            "applicationIconBadgeNumber": 1,
        ])
        try await post("schedules", [
            "scheduleID": "alarm", "fireDate": "2030-01-01T07:00:00", "timeZone": "Europe/Paris",
            "repeatInterval": "day", "alertBody": "Time to get up",
        ])
        try await post("schedules", [
            "scheduleID": "eiffel", "region": ["latitude": 48.8584, "longitude": 2.2945, "radius": 300, "notifyOnExit": false],
            "alertBody": "You are near the Eiffel Tower",
        ])
        // Schedules and locations are separate topics: give the stage a moment to arm the
        // region before the device reports, as a real device reports again and again.
        try await Task.sleep(for: .seconds(2))
        let now = EpochMilliseconds.now()
        try await post("locations", ["latitude": 48.8738, "longitude": 2.2950, "timestamp": now])
        try await post("locations", ["latitude": 48.8583, "longitude": 2.2944, "timestamp": now + 1000])
        let deadline = ContinuousClock.now + .seconds(20)
        var fired: [[String: Any]] = []
        while ContinuousClock.now < deadline, fired.count < 2 {
            try await Task.sleep(for: .milliseconds(250))
            fired = (try await fetch(after)["notifications"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        }
        say("   fired into _alice's stream after her last page:")
        for notification in fired {
            let trigger = notification["trigger"] as? String ?? "?"
            say("     " + DemoScript.describe(notification) + " · \(notification["scheduleID"] as? String ?? "") (\(trigger))")
        }
        try await Task.sleep(for: .milliseconds(500))  // the tombstones of finished schedules reach the API's table
        let list = try await client.send("GET", "v1/containers/\(container)/schedules", body: nil)
        if let object = try? JSONSerialization.jsonObject(with: list.body) as? [String: Any] {
            for case let schedule as [String: Any] in object["schedules"] as? [Any] ?? [] {
                say("   still pending: \(schedule["scheduleID"] as? String ?? "?") · next \(schedule["nextFireDate"] as? String ?? "on a region crossing")")
            }
        }
    }

    private func post(_ path: String, _ body: [String: Any]) async throws {
        let answer = try await client.send(
            "POST", "v1/containers/\(container)/\(path)", body: try JSONSerialization.data(withJSONObject: body))
        guard (200..<300).contains(answer.status) else {
            throw CommandFailure.runtime("POST \(path): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        let name = body["scheduleID"] as? String ?? "(\(body["latitude"] ?? ""), \(body["longitude"] ?? ""))"
        say("   POST …/\(path) \(name) → \(answer.status)")
    }
}
