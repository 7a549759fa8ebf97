import Foundation

extension Schedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case scheduleID, container, recipient, fireDate, timeZone, wallClockFireDate, repeatInterval, repeatCalendar, region
        case regionTriggersOnce, alertBody, alertAction, alertTitle, alertLaunchImage, category, soundName
        case hasAction, applicationIconBadgeNumber, userInfo, createdAt
    }

    /// Decodes and validates:
    /// - `scheduleID` non-empty, at most 255 UTF-8 bytes, without `/`; `container` and
    ///   `recipient` non-empty;
    /// - `fireDate` an ISO 8601 string with `Z` or an offset, an integer of milliseconds,
    ///   or — only with a `timeZone` — a string without offset read as wall-clock time in
    ///   that zone (a time skipped by a clock change moves forward by the gap; a repeated
    ///   one is the first); between 1970 and 9999. A skipped time is kept as
    ///   `wallClockFireDate`, the time later occurrences keep;
    /// - `wallClockFireDate` (what encoding writes for such a time) only with a `timeZone`
    ///   and a `fireDate`: a wall-clock text without offset that the zone places at `fireDate`;
    /// - `timeZone` a zone Foundation knows; `repeatInterval` see `RepeatInterval`;
    ///   `repeatCalendar` a `RepeatCalendar` name;
    /// - a fire date and a region together are refused (docs/cloudkit-behaviour.md §10);
    /// - `applicationIconBadgeNumber` and `createdAt` not negative; `userInfo` holds
    ///   property-list values only (no `null`).
    /// - Throws: `ModelError` (or `DecodingError`, which `WireCodec` translates) at the offending path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        scheduleID = try c.decodeNonEmpty(.scheduleID)
        guard scheduleID.utf8.count <= 255 else {
            throw c.error(.invalidValue, "must be at most 255 UTF-8 bytes, got \(scheduleID.utf8.count)", at: .scheduleID)
        }
        guard !scheduleID.contains("/") else { throw c.error(.invalidValue, "must not contain \"/\"", at: .scheduleID) }
        container = try c.decodeNonEmpty(.container)
        recipient = try c.decodeNonEmpty(.recipient)
        timeZone = try c.decodeNonEmptyIfPresent(.timeZone)
        let zone = try timeZone.map { (identifier) throws(ModelError) -> TimeZone in
            guard let zone = TimeZone(identifier: identifier) else {
                throw c.error(.unknownValue, "unknown time zone \"\(identifier)\" (expected an IANA identifier such as Europe/Paris)", at: .timeZone)
            }
            return zone
        }
        let written = try Self.decodeFireDate(c, zone: zone)
        fireDate = written?.instant
        wallClockFireDate = try Self.decodeWallClockFireDate(c, zone: zone, written: written)
        repeatInterval = try c.decodeIfPresent(JSONValue.self, forKey: .repeatInterval).flatMap {
            (json) throws(ModelError) in try RepeatInterval.wire(json, at: c.codingPath + [CodingKeys.repeatInterval])
        }
        repeatCalendar = try c.decodeIfPresent(RepeatCalendar.self, forKey: .repeatCalendar)?.rawValue
        region = try c.decodeIfPresent(ScheduleRegion.self, forKey: .region)
        if fireDate != nil, region != nil {
            throw c.error(.invalidValue, "a schedule fires on a date or on a region, not both", at: .region)
        }
        regionTriggersOnce = try c.decodeIfPresent(Bool.self, forKey: .regionTriggersOnce) ?? true
        alertBody = try c.decodeIfPresent(String.self, forKey: .alertBody)
        alertAction = try c.decodeIfPresent(String.self, forKey: .alertAction)
        alertTitle = try c.decodeIfPresent(String.self, forKey: .alertTitle)
        alertLaunchImage = try c.decodeIfPresent(String.self, forKey: .alertLaunchImage)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        soundName = try c.decodeIfPresent(String.self, forKey: .soundName)
        hasAction = try c.decodeIfPresent(Bool.self, forKey: .hasAction) ?? true
        applicationIconBadgeNumber = try c.decodeIntegerIfPresent(.applicationIconBadgeNumber).map {
            (badge) throws(ModelError) -> Int in
            guard badge >= 0, badge <= Int64(Int32.max) else {
                throw c.error(.invalidValue, "must be 0 or more (and fit in 32 bits), got \(badge)", at: .applicationIconBadgeNumber)
            }
            return Int(badge)
        }
        userInfo = try c.decodeIfPresent([String: JSONValue].self, forKey: .userInfo)
        if let userInfo { try Self.validatePropertyList(.object(userInfo), at: c.codingPath + [CodingKeys.userInfo]) }
        createdAt = try c.decodeNonNegativeIfPresent(.createdAt)
    }

    /// Encodes what is set: absent optionals, `hasAction` and `regionTriggersOnce` when
    /// true are omitted; `fireDate` as UTC ISO 8601, `wallClockFireDate` (only for a time
    /// a clock change skips) as wall-clock text without offset.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(scheduleID, forKey: .scheduleID)
        try c.encode(container, forKey: .container)
        try c.encode(recipient, forKey: .recipient)
        try c.encodeIfPresent(fireDate.map(ISO8601Instant.format), forKey: .fireDate)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(wallClockFireDate.map { String(ISO8601Instant.format($0).dropLast()) }, forKey: .wallClockFireDate)
        try c.encodeIfPresent(repeatInterval?.rawValue, forKey: .repeatInterval)
        try c.encodeIfPresent(repeatCalendar, forKey: .repeatCalendar)
        try c.encodeIfPresent(region, forKey: .region)
        if !regionTriggersOnce { try c.encode(false, forKey: .regionTriggersOnce) }
        try c.encodeIfPresent(alertBody, forKey: .alertBody)
        try c.encodeIfPresent(alertAction, forKey: .alertAction)
        try c.encodeIfPresent(alertTitle, forKey: .alertTitle)
        try c.encodeIfPresent(alertLaunchImage, forKey: .alertLaunchImage)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(soundName, forKey: .soundName)
        if !hasAction { try c.encode(false, forKey: .hasAction) }
        try c.encodeIfPresent(applicationIconBadgeNumber, forKey: .applicationIconBadgeNumber)
        try c.encodeIfPresent(userInfo, forKey: .userInfo)
        try c.encodeIfPresent(createdAt, forKey: .createdAt)
    }

    /// The fire date's instant and, when it was written as wall-clock time, that time (nominal).
    private static func decodeFireDate(
        _ c: KeyedDecodingContainer<CodingKeys>, zone: TimeZone?
    ) throws -> (instant: Int64, wallClock: Int64?)? {
        guard let json = try c.decodeIfPresent(JSONValue.self, forKey: .fireDate) else { return nil }
        return try fireDate(json, zone: zone, at: c.codingPath + [CodingKeys.fireDate])
    }

    /// Reads a fire date's wire value: its instant and, when it was written as wall-clock
    /// time, that time (nominal). Shared with the fast reader.
    static func fireDate(
        _ json: JSONValue, zone: TimeZone?, at path: [any CodingKey]
    ) throws(ModelError) -> (instant: Int64, wallClock: Int64?)? {
        let instant: Int64
        var wallClock: Int64?
        switch json {
        case .null:
            return nil
        case .integer(let milliseconds):
            instant = milliseconds
        case .string(let text):
            switch try ISO8601Instant.parse(text, at: path) {
            case .instant(let value):
                instant = value
            case .wallClock(let nominal):
                guard let zone else {
                    throw ModelError(
                        .invalidValue,
                        "\"\(text)\" has no offset: add Z or ±HH:MM, or give a timeZone to read it as wall-clock time",
                        at: path)
                }
                instant = zone.instant(forWallClock: nominal)
                wallClock = nominal
            }
        default:
            throw ModelError(
                .typeMismatch, "expected an ISO 8601 string or an integer of milliseconds, got \(json.abbreviated())",
                at: path)
        }
        guard (0...ISO8601Instant.latest).contains(instant) else {
            throw ModelError(.invalidValue, "must be between 1970 and 9999, got \(json.abbreviated())", at: path)
        }
        return (instant, wallClock)
    }

    /// The written wall-clock time when `zone` skips it (`nil` when it exists: the fire
    /// date's own wall-clock time says it), from the `wallClockFireDate` member or from a
    /// `fireDate` written as wall-clock text; both present must agree.
    private static func decodeWallClockFireDate(
        _ c: KeyedDecodingContainer<CodingKeys>, zone: TimeZone?, written: (instant: Int64, wallClock: Int64?)?
    ) throws -> Int64? {
        try wallClockFireDate(
            c.decodeIfPresent(String.self, forKey: .wallClockFireDate), zone: zone, written: written,
            at: c.codingPath + [CodingKeys.wallClockFireDate])
    }

    /// `decodeWallClockFireDate` on the member's text (shared with the fast reader).
    static func wallClockFireDate(
        _ text: String?, zone: TimeZone?, written: (instant: Int64, wallClock: Int64?)?, at path: [any CodingKey]
    ) throws(ModelError) -> Int64? {
        var nominal = written?.wallClock
        if let text {
            guard case .wallClock(let member) = try ISO8601Instant.parse(text, at: path) else {
                throw ModelError(.invalidValue, "\"\(text)\" must be wall-clock time without an offset", at: path)
            }
            guard let zone, let written, zone.instant(forWallClock: member) == written.instant, nominal.map({ $0 == member }) ?? true
            else {
                throw ModelError(
                    .invalidValue,
                    "\"\(text)\" needs a timeZone and a fireDate that it names (read in that zone, it must give the fire date)",
                    at: path)
            }
            nominal = member
        }
        guard let nominal, let zone, let written, zone.wallClock(of: written.instant) != nominal else { return nil }
        return nominal
    }

    /// Refuses `null` anywhere: property lists have no null.
    static func validatePropertyList(_ value: JSONValue, at path: [any CodingKey]) throws(ModelError) {
        switch value {
        case .null:
            throw ModelError(.invalidValue, "null is not a property-list type", at: path)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try validatePropertyList(element, at: path + [WireKey(index: index)])
            }
        case .object(let members):
            for key in members.keys.sorted() { try validatePropertyList(members[key] ?? .null, at: path + [WireKey(key)]) }
        case .bool, .integer, .double, .string:
            break
        }
    }
}
