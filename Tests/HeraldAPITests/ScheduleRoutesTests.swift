import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Schedule routes")
struct ScheduleRoutesTests {
    typealias H = APITestHarness

    /// `H.now` in milliseconds.
    static let now: Int64 = 1_795_300_000_000
    static let hour: Int64 = 3_600_000
    static let schedulesPath = H.path("schedules")

    /// A dated schedule body without its identity keys: fires `hours` hours after now.
    static func dated(_ id: String? = nil, hours: Int64 = 1) -> JSONValue {
        var members: [String: JSONValue] = [
            "fireDate": .string(ISO8601Instant.format(now + hours * hour)), "alertBody": "Wake up", "soundName": "chime.caf",
        ]
        if let id { members["scheduleID"] = .string(id) }
        return .object(members)
    }

    /// `body` with `key` set to `value`.
    static func setting(_ key: String, _ value: JSONValue, in body: JSONValue = dated("s1")) -> JSONValue {
        var members = body.objectValue ?? [:]
        members[key] = value
        return .object(members)
    }

    /// A stored schedule of `_u1` firing `hours` hours after now.
    static func stored(_ id: String, hours: Int64, recipient: String = "_u1", repeatInterval: RepeatInterval? = nil) -> Schedule {
        Schedule(
            scheduleID: id, container: H.container, recipient: recipient, fireDate: now + hours * hour,
            repeatInterval: repeatInterval, alertBody: id, createdAt: now - hour)
    }

    static func json(_ response: TestResponse) throws -> JSONValue {
        try WireCodec().decode(JSONValue.self, from: Data(response.body.readableBytesView))
    }

    static func post(_ client: some TestClientProtocol, _ body: JSONValue, headers: HTTPFields) async throws -> TestResponse {
        try await client.execute(uri: schedulesPath, method: .post, headers: headers, body: try .json(body))
    }

    @Test("POST completes the schedule from the path, token and clock, publishes it, and GET returns it")
    func postThenGet() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.dated("wake-up", hours: 2), headers: headers)
            #expect(post.status == .created, "\(post.text)")
            let answer = try Self.json(post)
            #expect(answer["discarded"] == [])
            let view = try #require(answer["schedule"])
            #expect(view["scheduleID"] == "wake-up")
            #expect(view["container"] == .string(H.container))
            #expect(view["recipient"] == "_u1")
            #expect(view["createdAt"] == .integer(Self.now))
            #expect(view["fireDate"] == .string(ISO8601Instant.format(Self.now + 2 * Self.hour)))
            #expect(view["nextFireDate"] == view["fireDate"])
            let published = Schedule(
                scheduleID: "wake-up", container: H.container, recipient: "_u1", fireDate: Self.now + 2 * Self.hour,
                alertBody: "Wake up", soundName: "chime.caf", createdAt: Self.now)
            #expect(harness.publisher.messages == [.schedule(published)])

            let get = try await client.execute(uri: "\(Self.schedulesPath)/wake-up", method: .get, headers: headers)
            #expect(get.status == .ok)
            #expect(try Self.json(get) == view)
            let list = try await client.execute(uri: Self.schedulesPath, method: .get, headers: headers)
            #expect(try Self.json(list) == ["schedules": [view]])
        }
    }

    @Test("without a scheduleID the server gives a new lower-case UUID; null means absent")
    func generatedID() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            var ids: Set<String> = []
            for body in [Self.dated(), Self.setting("scheduleID", nil, in: Self.dated())] {
                let post = try await Self.post(client, body, headers: headers)
                #expect(post.status == .created, "\(post.text)")
                let id = try #require(try Self.json(post)["schedule"]?["scheduleID"]?.stringValue)
                #expect(UUID(uuidString: id) != nil)
                #expect(id == id.lowercased())
                ids.insert(id)
            }
            #expect(ids.count == 2)
            #expect(harness.schedules.schedules(recipient: "_u1", container: H.container).count == 2)
        }
    }

    @Test("identity keys that agree are accepted")
    func agreeingIdentity() async throws {
        let harness = try await H()
        let body = Self.setting("recipient", "_u1", in: Self.setting("container", .string(H.container)))
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, body, headers: headers)
            #expect(post.status == .created, "\(post.text)")
        }
    }

    @Test("identity keys that disagree with the path or token are BAD_REQUEST", arguments: [
        ("container", "iCloud.elsewhere" as JSONValue), ("recipient", "_u2"), ("recipient", 5),
    ])
    func disagreeingIdentity(key: String, value: JSONValue) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.setting(key, value), headers: headers)
            let error = try post.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason.hasPrefix("\(key):"))
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("createdAt is the server's: given in the body it is BAD_REQUEST")
    func createdAtRefused() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.setting("createdAt", 1_795_000_000_000), headers: headers)
            let error = try post.error(.badRequest)
            #expect(error.reason.hasPrefix("createdAt:"))
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a fire date and a region together are INVALID_SCHEDULE with a clear reason")
    func dateAndRegion() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body = Self.setting("region", ["latitude": 48.8584, "longitude": 2.2945, "radius": 200])
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, body, headers: headers).error(.badRequest)
            #expect(error.serverErrorCode == "INVALID_SCHEDULE")
            #expect(error.reason == "region: a schedule fires on a date or on a region, not both")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("well-typed but invalid schedules are INVALID_SCHEDULE, the reason led by the JSON path", arguments: [
        ("repeatInterval", "second" as JSONValue, "repeatInterval:"),
        ("repeatInterval", "fortnight", "repeatInterval:"),
        ("timeZone", "Mars/Olympus_Mons", "timeZone:"),
        ("repeatCalendar", "martian", "repeatCalendar:"),
        ("fireDate", "2026-11-22T07:00:00", "fireDate:"),
        ("fireDate", "10000-01-01T00:00:00Z", "fireDate:"),
        ("scheduleID", "a/b", "scheduleID:"),
        ("scheduleID", "", "scheduleID:"),
        ("applicationIconBadgeNumber", -1, "applicationIconBadgeNumber:"),
        ("userInfo", ["list": [1, nil]] as JSONValue, "userInfo.list[1]:"),
        ("userInfo", ["aps": ["alert": "hi"]] as JSONValue, "userInfo.aps:"),
    ])
    func invalidSchedule(key: String, value: JSONValue, path: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, Self.setting(key, value), headers: headers).error(.badRequest)
            #expect(error.serverErrorCode == "INVALID_SCHEDULE")
            #expect(error.reason.hasPrefix(path), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("an invalid region is INVALID_SCHEDULE at its member")
    func invalidRegion() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body: JSONValue = ["region": ["latitude": 48.8584, "longitude": 2.2945, "radius": 0]]
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, body, headers: headers).error(.badRequest)
            #expect(error.serverErrorCode == "INVALID_SCHEDULE")
            #expect(error.reason.hasPrefix("region.radius:"), "\(error.reason)")
        }
    }

    @Test("a push that does not fit APNs' limit even pruned is INVALID_SCHEDULE with the composer's reason")
    func payloadTooLarge() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body = Self.setting("category", .string(String(repeating: "c", count: 5000)))
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, body, headers: headers).error(.badRequest)
            #expect(error.serverErrorCode == "INVALID_SCHEDULE")
            #expect(error.reason.contains("bytes even pruned"), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("malformed JSON and wrongly typed values are BAD_REQUEST", arguments: [
        "{not json", "[]", #"{"alertBody": 5}"#, #"{"hasAction": "yes"}"#, #"{"fireDate": true}"#,
        #"{"region": [1, 2]}"#, #"{"userInfo": "x"}"#, "",
    ])
    func malformed(body: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: Self.schedulesPath, method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(try response.error(.badRequest).serverErrorCode == "BAD_REQUEST")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("null members mean absent")
    func nullMeansAbsent() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body: JSONValue = [
            "scheduleID": "n", "fireDate": nil, "timeZone": nil, "repeatInterval": nil, "region": nil, "userInfo": nil,
            "hasAction": nil, "createdAt": nil, "alertBody": "Now",
        ]
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, body, headers: headers)
            #expect(post.status == .created, "\(post.text)")
            // No fire date and no region: it fires immediately.
            #expect(try Self.json(post)["schedule"]?["nextFireDate"] == .string(ISO8601Instant.format(Self.now)))
        }
    }

    @Test("POSTing an ID again replaces that schedule")
    func replace() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            _ = try await Self.post(client, Self.dated("s1", hours: 1), headers: headers)
            let again = try await Self.post(client, Self.dated("s1", hours: 5), headers: headers)
            #expect(again.status == .created)
            #expect(try Self.json(again)["discarded"] == [])
            let stored = harness.schedules.schedules(recipient: "_u1", container: H.container)
            #expect(stored.map(\.fireDate) == [Self.now + 5 * Self.hour])
        }
    }

    @Test("a 65th schedule firing last is discarded on arrival: reported, not published")
    func limitDiscardsNewcomer() async throws {
        let harness = try await H()
        for index in 1...64 { harness.schedules.put(Self.stored("s\(index)", hours: Int64(index))) }
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.dated("late", hours: 100), headers: headers)
            #expect(post.status == .created)
            let answer = try Self.json(post)
            #expect(answer["discarded"] == ["late"])
            #expect(answer["schedule"]?["scheduleID"] == "late")
        }
        #expect(harness.publisher.messages.isEmpty)
        #expect(harness.schedules.schedule(forKey: "\(H.container)/_u1/late") == nil)
    }

    @Test("a sooner 65th schedule discards the one firing last: its tombstone is published")
    func limitDiscardsLatest() async throws {
        let harness = try await H()
        for index in 1...64 { harness.schedules.put(Self.stored("s\(index)", hours: Int64(index))) }
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.dated("soon", hours: 0), headers: headers)
            #expect(post.status == .created)
            #expect(try Self.json(post)["discarded"] == ["s64"])
            let messages = harness.publisher.messages
            #expect(messages.count == 2)
            #expect(messages.last == .scheduleTombstone("\(H.container)/_u1/s64"))
            let list = try await client.execute(uri: Self.schedulesPath, method: .get, headers: headers)
            let ids = try Self.json(list)["schedules"]?.arrayValue?.compactMap { $0["scheduleID"]?.stringValue }
            #expect(ids == ["soon"] + (1...63).map { "s\($0)" })
        }
    }

    @Test("a repeating schedule counts once toward the 64")
    func repeatingCountsOnce() async throws {
        let harness = try await H()
        harness.schedules.put(Self.stored("every-minute", hours: 1, repeatInterval: .minute))
        for index in 2...64 { harness.schedules.put(Self.stored("s\(index)", hours: Int64(index))) }
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let post = try await Self.post(client, Self.dated("soon", hours: 0), headers: headers)
            #expect(try Self.json(post)["discarded"] == ["s64"])
        }
        #expect(harness.schedules.schedule(forKey: "\(H.container)/_u1/every-minute") != nil)
    }

    @Test("another user's schedules are not the caller's: not listed, GET and DELETE are 404")
    func otherUsers() async throws {
        let harness = try await H()
        harness.schedules.put(Self.stored("theirs", hours: 1, recipient: "_u2"))
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let list = try await client.execute(uri: Self.schedulesPath, method: .get, headers: headers)
            #expect(try Self.json(list) == ["schedules": []])
            for method in [HTTPRequest.Method.get, .delete] {
                let response = try await client.execute(uri: "\(Self.schedulesPath)/theirs", method: method, headers: headers)
                #expect(try response.error(.notFound).serverErrorCode == "NOT_FOUND")
            }
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("DELETE publishes the tombstone and answers {scheduleID, deleted}; then GET is 404")
    func delete() async throws {
        let harness = try await H()
        let schedule = Self.stored("s1", hours: 1)
        harness.schedules.put(schedule)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let delete = try await client.execute(uri: "\(Self.schedulesPath)/s1", method: .delete, headers: headers)
            #expect(delete.status == .ok)
            #expect(try Self.json(delete) == ["scheduleID": "s1", "deleted": true])
            #expect(harness.publisher.messages == [.scheduleTombstone(schedule.partitionKey)])
            let get = try await client.execute(uri: "\(Self.schedulesPath)/s1", method: .get, headers: headers)
            _ = try get.error(.notFound)
            let again = try await client.execute(uri: "\(Self.schedulesPath)/s1", method: .delete, headers: headers)
            _ = try again.error(.notFound)
        }
    }

    @Test("the list is sorted by next fire date, region schedules last, with nextFireDate null for them")
    func listOrder() async throws {
        let harness = try await H()
        harness.schedules.put(Schedule(
            scheduleID: "a-region", container: H.container, recipient: "_u1",
            region: ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200), createdAt: Self.now - Self.hour))
        harness.schedules.put(Self.stored("b-later", hours: 3))
        harness.schedules.put(Self.stored("c-sooner", hours: 1))
        // Accepted an hour ago with a past fire date: fired then; next on its next daily repeat.
        harness.schedules.put(Schedule(
            scheduleID: "d-daily", container: H.container, recipient: "_u1", fireDate: Self.now - 22 * Self.hour,
            repeatInterval: .day, createdAt: Self.now - Self.hour))
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let list = try Self.json(try await client.execute(uri: Self.schedulesPath, method: .get, headers: headers))
            let entries = try #require(list["schedules"]?.arrayValue)
            #expect(entries.compactMap { $0["scheduleID"]?.stringValue } == ["c-sooner", "d-daily", "b-later", "a-region"])
            #expect(entries[1]["nextFireDate"] == .string(ISO8601Instant.format(Self.now + 2 * Self.hour)))
            #expect(entries[3]["nextFireDate"] == .null)
        }
    }

    @Test("a failed publish is SERVICE_UNAVAILABLE")
    func publishFailure() async throws {
        let harness = try await H()
        harness.publisher.failing = true
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, Self.dated("s1"), headers: headers).error(.serviceUnavailable)
            #expect(error.serverErrorCode == "SERVICE_UNAVAILABLE")
        }
    }

    @Test("a token for another container is ACCESS_DENIED")
    func otherContainer() async throws {
        let harness = try await H()
        let headers = try await harness.authorization(container: H.otherContainer)
        try await harness.application().test(.router) { client in
            let error = try await Self.post(client, Self.dated("s1"), headers: headers).error(.forbidden)
            #expect(error.serverErrorCode == "ACCESS_DENIED")
        }
    }
}
