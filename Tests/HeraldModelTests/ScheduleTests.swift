import Foundation
import Testing

@testable import HeraldModel

@Suite("Schedules, device locations and scheduled firings (docs/cloudkit-behaviour.md §10)")
struct ScheduleTests {
    static let alarm = #"""
        {"scheduleID": "wake-up", "container": "iCloud.com.example.clock", "recipient": "_u1",
         "fireDate": "2026-03-29T07:00:00", "timeZone": "Europe/Paris", "repeatInterval": "day",
         "alertBody": "Good morning", "alertAction": "Snooze", "alertTitle": "Alarm", "alertLaunchImage": "wake.png",
         "category": "ALARM", "soundName": "chime.caf", "hasAction": false, "applicationIconBadgeNumber": 2,
         "userInfo": {"kind": "alarm", "count": 3, "ratio": 0.5, "on": true, "tags": ["a", {"b": 1}]},
         "createdAt": 1774700000000}
        """#

    static let geofence = #"""
        {"scheduleID": "near-tower", "container": "iCloud.com.example.clock", "recipient": "_u1",
         "region": {"latitude": 48.8584, "longitude": 2.2945, "radius": 200}, "alertBody": "You are near the tower"}
        """#

    /// The error decoding `json` with the member at `path` replaced (removed when `nil`).
    static func error(_ json: String, _ path: String, _ value: JSONValue?) throws -> ModelError? {
        Fixtures.decodeError(Schedule.self, try Fixtures.edit(alarm, path, value))
    }

    static func fireDate(_ value: JSONValue, timeZone: String? = nil) throws -> Int64? {
        var json = try Fixtures.edit(alarm, "fireDate", value)
        json = try Fixtures.edit(json, "timeZone", timeZone.map(JSONValue.string))
        return try Fixtures.decode(Schedule.self, json).fireDate
    }

    // MARK: - Decoding

    @Test("the documented alarm decodes with every member")
    func decodesAlarm() throws {
        let schedule = try Fixtures.decode(Schedule.self, Self.alarm)
        #expect(schedule.partitionKey == "iCloud.com.example.clock/_u1/wake-up")
        #expect(schedule.recipientKey == "_u1")
        #expect(schedule.fireDate == 1_774_760_400_000)  // 07:00 CEST = 05:00Z
        #expect(schedule.isFloating)
        #expect(schedule.repeatInterval == .day)
        #expect(schedule.calendar == .gregorian)
        #expect(schedule.hasAction == false)
        #expect(schedule.regionTriggersOnce)
        #expect(schedule.applicationIconBadgeNumber == 2)
        #expect(schedule.userInfo?["tags"] == ["a", ["b": 1]])
        #expect(schedule.createdAt == 1_774_700_000_000)
    }

    @Test("a region schedule decodes with notify flags defaulting to true")
    func decodesRegion() throws {
        let schedule = try Fixtures.decode(Schedule.self, Self.geofence)
        #expect(schedule.fireDate == nil)
        #expect(schedule.region == ScheduleRegion(latitude: 48.8584, longitude: 2.2945, radius: 200))
        #expect(schedule.region?.notifyOnEntry == true && schedule.region?.notifyOnExit == true)
    }

    @Test("fireDate is an ISO 8601 instant or an integer of milliseconds", arguments: [
        (JSONValue.string("2026-03-29T01:30:00Z"), Int64(1_774_747_800_000)),
        ("2026-03-29T02:30:00+01:00", 1_774_747_800_000),
        ("2026-03-28T20:30:00-05:00", 1_774_747_800_000),
        ("2026-03-29T01:30:00.25Z", 1_774_747_800_250),
        ("2026-03-29T01:30:00.250999999Z", 1_774_747_800_250),
        (.integer(1_774_747_800_250), 1_774_747_800_250),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        ("1970-01-01T00:00:00Z", 0),
    ])
    func fireDateForms(json: JSONValue, expected: Int64) throws {
        #expect(try Self.fireDate(json) == expected)
        #expect(try Self.fireDate(json, timeZone: "America/New_York") == expected)
    }

    @Test("without an offset, fireDate is wall-clock time in timeZone", arguments: [
        ("2026-01-15T08:00:00", "Europe/Paris", "2026-01-15T07:00:00Z"),
        ("2026-07-15T08:00:00", "Europe/Paris", "2026-07-15T06:00:00Z"),
        ("2026-07-15T08:00:00.5", "America/New_York", "2026-07-15T12:00:00.500Z"),
        // Skipped by the spring-forward change: the same distance after it (02:30 → 03:30 CEST).
        ("2026-03-29T02:30:00", "Europe/Paris", "2026-03-29T01:30:00Z"),
        ("2026-03-08T02:30:00", "America/New_York", "2026-03-08T07:30:00Z"),
        // Repeated by the fall-back change: the first of the two.
        ("2026-10-25T02:30:00", "Europe/Paris", "2026-10-25T00:30:00Z"),
        ("2026-11-01T01:30:00", "America/New_York", "2026-11-01T05:30:00Z"),
    ])
    func wallClockForm(text: String, zone: String, expected: String) throws {
        let instant = try #require(try Self.fireDate(.string(text), timeZone: zone))
        #expect(ISO8601Instant.format(instant) == expected)
    }

    @Test("a fireDate without offset needs a timeZone")
    func wallClockNeedsZone() throws {
        let error = try #require(Fixtures.decodeError(Schedule.self, try Fixtures.edit(Self.alarm, "timeZone", nil)))
        #expect(error.path == "fireDate")
        #expect(error.reason.contains("has no offset"), "\(error)")
    }

    @Test("garbage fire dates are refused at fireDate", arguments: [
        (JSONValue.string("tomorrow"), "expected YYYY-MM-DDTHH:MM:SS"),
        ("2026-02-30T07:00:00Z", "there is no day 30 in month 2 of 2026"),
        ("2026-13-01T07:00:00Z", "there is no day 1 in month 13"),
        ("2026-03-29 07:00:00Z", "expected YYYY-MM-DDTHH:MM:SS"),
        ("2026-03-29T24:00:00Z", "the time of day is out of range"),
        ("2026-03-29T07:00:00+0100", "expected Z or an offset"),
        ("2026-03-29T07:00:00Zjunk", "unexpected text after the offset"),
        ("2026-03-29T07:00:00.Z", "1 to 9 digits"),
        ("2026-03-29T07:00:00.1234567890Z", "1 to 9 digits"),
        ("1969-12-31T23:59:59Z", "between 1970 and 9999"),
        (.integer(-1), "between 1970 and 9999"),
        (.double(1.5), "expected an ISO 8601 string or an integer"),
        (.bool(true), "expected an ISO 8601 string or an integer"),
    ])
    func badFireDates(json: JSONValue, message: String) throws {
        let error = try #require(try Self.error(Self.alarm, "fireDate", json))
        #expect(error.path == "fireDate")
        #expect(error.reason.contains(message), "\(error)")
    }

    @Test("an unknown timeZone is named")
    func unknownZone() throws {
        let error = try #require(try Self.error(Self.alarm, "timeZone", "Europe/Atlantis"))
        #expect(error.description.hasPrefix("timeZone: unknown time zone \"Europe/Atlantis\""))
    }

    @Test("repeatInterval accepts names and NSCalendarUnit numbers", arguments: [
        (JSONValue.string("minute"), RepeatInterval?.some(.minute)), (.integer(64), .minute),
        ("hour", .hour), (.integer(32), .hour), ("day", .day), (.integer(16), .day),
        ("weekday", .weekday), (.integer(512), .weekday), ("week", .week), (.integer(8192), .week),
        (.integer(256), .week), ("month", .month), (.integer(8), .month), ("quarter", .quarter),
        (.integer(2048), .quarter), ("year", .year), (.integer(4), .year),
        ("none", nil), (.integer(0), nil), (.null, nil),
    ])
    func repeatIntervals(json: JSONValue, expected: RepeatInterval?) throws {
        let schedule = try Fixtures.decode(Schedule.self, try Fixtures.edit(Self.alarm, "repeatInterval", json))
        #expect(schedule.repeatInterval == expected)
    }

    @Test("repeatInterval under a minute is refused", arguments: [JSONValue.string("second"), .integer(128)])
    func underAMinute(json: JSONValue) throws {
        let error = try #require(try Self.error(Self.alarm, "repeatInterval", json))
        #expect(error.description == "repeatInterval: repeatInterval second is under a minute; the shortest is minute")
    }

    @Test("unknown repeat intervals list the allowed names", arguments: [
        JSONValue.string("era"), .integer(2), .string("fortnight"), .integer(4096), .string("Day"), .double(16.5),
    ])
    func unknownInterval(json: JSONValue) throws {
        let error = try #require(try Self.error(Self.alarm, "repeatInterval", json))
        #expect(error.code == .unknownValue)
        #expect(error.reason.contains("minute, hour, day, weekday, week, month, quarter, year"))
    }

    @Test("repeatCalendar accepts every supported name and refuses others, listing them", arguments: [
        "ethiopicAmeteAlem", "julian", "Gregorian",
    ])
    func unknownCalendar(name: String) throws {
        let error = try #require(try Self.error(Self.alarm, "repeatCalendar", .string(name)))
        #expect(error.path == "repeatCalendar")
        #expect(error.reason.contains("gregorian, buddhist, chinese"))
        for calendar in RepeatCalendar.allCases {
            let schedule = try Fixtures.decode(
                Schedule.self, try Fixtures.edit(Self.alarm, "repeatCalendar", .string(calendar.rawValue)))
            #expect(schedule.calendar == calendar)
        }
    }

    /// 2026-01-31 in each calendar, from published conversions: Foundation on this
    /// platform must agree for the calendar to be offered.
    @Test("every supported calendar computes real dates on this platform", arguments: [
        (RepeatCalendar.gregorian, 2026, 1, 31), (.buddhist, 2569, 1, 31), (.chinese, 42, 12, 13),
        (.coptic, 1742, 5, 23), (.ethiopicAmeteMihret, 2018, 5, 23), (.hebrew, 5786, 5, 13),
        (.iso8601, 2026, 1, 31), (.indian, 1947, 11, 11), (.islamic, 1447, 8, 13), (.islamicCivil, 1447, 8, 12),
        (.japanese, 8, 1, 31), (.persian, 1404, 11, 11), (.republicOfChina, 115, 1, 31),
        (.islamicTabular, 1447, 8, 13), (.islamicUmmAlQura, 1447, 8, 12),
    ])
    func calendarWorks(calendar: RepeatCalendar, year: Int, month: Int, day: Int) {
        let parts = calendar.utcCalendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: 1_769_817_600))
        #expect([parts.year, parts.month, parts.day] == [year, month, day])
        #expect(RepeatCalendar.allCases.count == 15)
    }

    @Test("a fire date and a region together are refused")
    func dateAndRegion() throws {
        let json = try Fixtures.edit(Self.geofence, "fireDate", "2026-03-29T07:00:00Z")
        let error = try #require(Fixtures.decodeError(Schedule.self, json))
        #expect(error.description == "region: a schedule fires on a date or on a region, not both")
    }

    @Test("region members are validated", arguments: [
        ("region.latitude", JSONValue?.some(.double(90.5)), "latitude must be within [-90, 90]"),
        ("region.longitude", .integer(-181), "longitude must be within [-180, 180]"),
        ("region.radius", .integer(0), "radius must be above 0"),
        ("region.radius", .integer(1_000_001), "at most 1000000 metres"),
        ("region.radius", nil, "required key is missing"),
        ("region.notifyOnExit", .string("no"), "expected a boolean"),
    ])
    func badRegion(path: String, value: JSONValue?, message: String) throws {
        let error = try #require(Fixtures.decodeError(Schedule.self, try Fixtures.edit(Self.geofence, path, value)))
        #expect(error.path == path)
        #expect(error.reason.contains(message), "\(error)")
    }

    @Test("a region notifies on entry, exit or both")
    func regionNotifiesSomething() throws {
        var json = try Fixtures.edit(Self.geofence, "region.notifyOnEntry", false)
        #expect(try Fixtures.decode(Schedule.self, json).region?.notifyOnExit == true)
        json = try Fixtures.edit(json, "region.notifyOnExit", false)
        let error = try #require(Fixtures.decodeError(Schedule.self, json))
        #expect(error.path == "region.notifyOnEntry")
        #expect(error.reason.contains("not neither"))
    }

    @Test("identifiers are validated", arguments: [
        ("scheduleID", JSONValue?.some(""), "must not be empty"),
        ("scheduleID", .string("a/b"), "must not contain \"/\""),
        ("scheduleID", .string(String(repeating: "é", count: 128)), "at most 255 UTF-8 bytes, got 256"),
        ("scheduleID", nil, "required key is missing"),
        ("container", .string(""), "must not be empty"),
        ("recipient", nil, "required key is missing"),
    ])
    func badIdentifiers(path: String, value: JSONValue?, message: String) throws {
        let error = try #require(try Self.error(Self.alarm, path, value))
        #expect(error.path == path)
        #expect(error.reason.contains(message), "\(error)")
    }

    @Test("a 255-byte scheduleID is accepted")
    func longestScheduleID() throws {
        let id = String(repeating: "x", count: 255)
        #expect(try Fixtures.decode(Schedule.self, try Fixtures.edit(Self.alarm, "scheduleID", .string(id))).scheduleID == id)
    }

    @Test("badge and createdAt are not negative", arguments: ["applicationIconBadgeNumber", "createdAt"])
    func notNegative(key: String) throws {
        let error = try #require(try Self.error(Self.alarm, key, -1))
        #expect(error.path == key)
        #expect(error.code == .invalidValue)
    }

    @Test("userInfo refuses null anywhere, naming the path", arguments: [
        ("userInfo.a.b", "userInfo.a.b"),
        ("userInfo.tags.1.b", "userInfo.tags[1].b"),
        ("userInfo.kind", "userInfo.kind"),
    ])
    func userInfoNull(edit: String, path: String) throws {
        var json = try Fixtures.edit(Self.alarm, "userInfo.a", ["b": 1])
        json = try Fixtures.edit(json, edit, .null)
        let error = try #require(Fixtures.decodeError(Schedule.self, json))
        #expect(error.description == "\(path): null is not a property-list type")
    }

    // MARK: - Encoding

    @Test("encoding writes fireDate in UTC, repeatInterval by name, and omits defaults")
    func encoding() throws {
        let schedule = try Fixtures.decode(
            Schedule.self, try Fixtures.edit(Self.alarm, "repeatInterval", .integer(8192)))
        let json = try Fixtures.codec.decode(JSONValue.self, from: try Fixtures.codec.encode(schedule))
        #expect(json["fireDate"] == "2026-03-29T05:00:00Z")
        #expect(json["repeatInterval"] == "week")
        #expect(json["hasAction"] == false)
        #expect(json["regionTriggersOnce"] == nil)
        let region = try Fixtures.decode(Schedule.self, Self.geofence)
        let encoded = String(decoding: try Fixtures.codec.encode(region), as: UTF8.self)
        #expect(encoded == #"{"alertBody":"You are near the tower","container":"iCloud.com.example.clock","#
            + #""recipient":"_u1","region":{"latitude":48.8584,"longitude":2.2945,"radius":200},"scheduleID":"near-tower"}"#)
    }

    @Test("ISO 8601 output has milliseconds only when they are not zero", arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"), (1_774_747_800_250, "2026-03-29T01:30:00.250Z"),
        (1_774_747_800_007, "2026-03-29T01:30:00.007Z"), (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
    ])
    func isoOutput(instant: Int64, text: String) throws {
        #expect(ISO8601Instant.format(instant) == text)
        #expect(try ISO8601Instant.parse(text) == .instant(instant))
    }

    @Test("civil dates convert both ways for every day of four centuries")
    func civilDates() {
        var previous = CivilDate(daysSince1970: -146_098)
        for days in Int64(-146_097)...Int64(146_097) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.isValid && date.daysSince1970 == days)
            if date.day != previous.day + 1 { #expect(date.day == 1) }
            previous = date
        }
    }

    @Test("schedules round-trip", arguments: [alarm, geofence])
    func roundTrip(json: String) throws {
        _ = try Fixtures.roundTrip(try Fixtures.decode(Schedule.self, json))
        var regional = try Fixtures.decode(Schedule.self, Self.geofence)
        regional.regionTriggersOnce = false
        regional.region?.notifyOnEntry = false
        regional.repeatCalendar = "hebrew"
        _ = try Fixtures.roundTrip(regional)
    }

    // MARK: - Device locations

    static let location = #"""
        {"recipient": "_u1", "container": "iCloud.com.example.clock", "latitude": 48.8584, "longitude": 2.2945,
         "timestamp": 1795300000000, "horizontalAccuracy": 12}
        """#

    @Test("a device location decodes and round-trips")
    func deviceLocation() throws {
        let location = try Fixtures.decode(DeviceLocation.self, Self.location)
        #expect(location.partitionKey == "_u1")
        #expect(location.horizontalAccuracy == 12)
        _ = try Fixtures.roundTrip(location)
    }

    @Test("device locations are validated", arguments: [
        ("timestamp", JSONValue?.none, "required key is missing"), ("timestamp", .integer(-5), "must not be negative"),
        ("latitude", .integer(-91), "latitude must be within"), ("longitude", .double(180.5), "longitude must be within"),
        ("horizontalAccuracy", .integer(-1), "must not be negative"), ("container", .string(""), "must not be empty"),
        ("recipient", nil, "required key is missing"),
    ])
    func badLocation(path: String, value: JSONValue?, message: String) throws {
        let error = try #require(Fixtures.decodeError(DeviceLocation.self, try Fixtures.edit(Self.location, path, value)))
        #expect(error.path == path)
        #expect(error.reason.contains(message), "\(error)")
    }

    // MARK: - Scheduled firings

    @Test("firing IDs are UUIDv5 of schedule/container/recipient/scheduleID@instant")
    func firingID() {
        // Computed independently with Python's uuid.uuid5.
        #expect(ScheduledFiring.firingID(
            container: "iCloud.com.example.clock", recipient: "_u1", scheduleID: "wake-up", instant: 1_774_760_400_000)
            == "d4acf8b2-4e7a-5487-b9e1-c7923d730cda")
        let other = ScheduledFiring.firingID(
            container: "iCloud.com.example.clock", recipient: "_u1", scheduleID: "wake-up", instant: 1_774_760_400_001)
        #expect(other != "d4acf8b2-4e7a-5487-b9e1-c7923d730cda")
    }

    @Test("a firing round-trips, and decoding checks its ID and identifiers")
    func firing() throws {
        let schedule = try Fixtures.decode(Schedule.self, Self.alarm)
        let firing = ScheduledFiring(schedule: schedule, fireDate: 1_774_760_400_000, trigger: .date)
        #expect(firing.firingID == "d4acf8b2-4e7a-5487-b9e1-c7923d730cda")
        #expect(firing.partitionKey == "_u1")
        _ = try Fixtures.roundTrip(firing)
        let json = String(decoding: try Fixtures.codec.encode(firing), as: UTF8.self)
        let forged = try #require(Fixtures.decodeError(ScheduledFiring.self, try Fixtures.edit(json, "fireDate", 1)))
        #expect(forged.path == "firingID")
        let moved = try #require(Fixtures.decodeError(ScheduledFiring.self, try Fixtures.edit(json, "recipient", "_u2")))
        #expect(moved.description == "recipient: \"_u2\" is not the schedule's recipient \"_u1\"")
        let trigger = try #require(Fixtures.decodeError(ScheduledFiring.self, try Fixtures.edit(json, "trigger", "soon")))
        #expect(trigger.reason.contains("date, immediate, regionEntry, regionExit"))
    }
}
