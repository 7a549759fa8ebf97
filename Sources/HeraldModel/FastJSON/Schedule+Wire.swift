import Foundation

extension Schedule: WireDecodable {
    /// Reads a schedule as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        scheduleID = try c.nonEmpty("scheduleID")
        guard scheduleID.utf8.count <= 255 else {
            throw ModelError(.invalidValue, "must be at most 255 UTF-8 bytes, got \(scheduleID.utf8.count)", path: "scheduleID")
        }
        guard !scheduleID.contains("/") else { throw ModelError(.invalidValue, "must not contain \"/\"", path: "scheduleID") }
        container = try c.nonEmpty("container")
        recipient = try c.nonEmpty("recipient")
        timeZone = try c.nonEmptyIfPresent("timeZone")
        let zone = try timeZone.map { (identifier) throws(ModelError) -> TimeZone in
            guard let zone = TimeZone(identifier: identifier) else {
                throw ModelError(
                    .unknownValue, "unknown time zone \"\(identifier)\" (expected an IANA identifier such as Europe/Paris)",
                    path: "timeZone")
            }
            return zone
        }
        let written = try c.within("fireDate") { () throws(ModelError) in
            try c.present("fireDate").flatMap { (node) throws(ModelError) in
                try Self.fireDate(document.jsonValue(node), zone: zone, at: [])
            }
        }
        fireDate = written?.instant
        let wallClockText = try c.optionalString("wallClockFireDate")
        wallClockFireDate = try c.within("wallClockFireDate") { () throws(ModelError) in
            try Self.wallClockFireDate(wallClockText, zone: zone, written: written, at: [])
        }
        repeatInterval = try c.within("repeatInterval") { () throws(ModelError) in
            try c.present("repeatInterval").flatMap { (node) throws(ModelError) in
                try RepeatInterval.wire(document.jsonValue(node), at: [])
            }
        }
        repeatCalendar = try c.optionalWireEnum(RepeatCalendar.self, "repeatCalendar")?.rawValue
        region = try c.present("region").map { (node) throws(ModelError) in
            try c.within("region") { () throws(ModelError) in try ScheduleRegion(wire: document, at: node) }
        }
        if fireDate != nil, region != nil {
            throw ModelError(.invalidValue, "a schedule fires on a date or on a region, not both", path: "region")
        }
        regionTriggersOnce = try c.optionalBool("regionTriggersOnce") ?? true
        alertBody = try c.optionalString("alertBody")
        alertAction = try c.optionalString("alertAction")
        alertTitle = try c.optionalString("alertTitle")
        alertLaunchImage = try c.optionalString("alertLaunchImage")
        category = try c.optionalString("category")
        soundName = try c.optionalString("soundName")
        hasAction = try c.optionalBool("hasAction") ?? true
        applicationIconBadgeNumber = try c.integerIfPresent("applicationIconBadgeNumber").map { (badge) throws(ModelError) -> Int in
            guard badge >= 0, badge <= Int64(Int32.max) else {
                throw ModelError(
                    .invalidValue, "must be 0 or more (and fit in 32 bits), got \(badge)", path: "applicationIconBadgeNumber")
            }
            return Int(badge)
        }
        userInfo = try c.optionalObject("userInfo")
        if let userInfo { try Self.validatePropertyList(.object(userInfo), at: [WireKey("userInfo")]) }
        createdAt = try c.nonNegativeIfPresent("createdAt")
    }
}

extension ScheduleRegion: WireDecodable {
    /// Reads a region as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        latitude = try c.degrees("latitude", bound: 90)
        longitude = try c.degrees("longitude", bound: 180)
        radius = try c.double("radius")
        guard radius > 0, radius <= Self.maximumRadius else {
            throw ModelError(.invalidValue, "radius must be above 0 and at most 1000000 metres, got \(radius)", path: "radius")
        }
        notifyOnEntry = try c.optionalBool("notifyOnEntry") ?? true
        notifyOnExit = try c.optionalBool("notifyOnExit") ?? true
        guard notifyOnEntry || notifyOnExit else {
            throw ModelError(.invalidValue, "a region notifies on entry, on exit or both, not neither", path: "notifyOnEntry")
        }
    }
}

extension JSONMembers {
    /// A required double (`decode(Double.self, forKey:)`).
    func double(_ key: StaticString) throws(ModelError) -> Double {
        guard let value = value(key) else { throw missing(key) }
        return try within(key) { () throws(ModelError) in try document.double(value) }
    }

    /// A required number of degrees within [-bound, bound] (`decodeLatitude`, `decodeLongitude`).
    func degrees(_ key: StaticString, bound: Int) throws(ModelError) -> Double {
        let value = try double(key)
        guard (-Double(bound)...Double(bound)).contains(value) else {
            throw ModelError(.invalidValue, "\(key) must be within [-\(bound), \(bound)], got \(value)", path: "\(key)")
        }
        return value
    }
}

extension Schedule: WireEncodable {
    /// Writes the schedule as `encode(to:)` does, keys in byte order: absent optionals, and
    /// `hasAction` / `regionTriggersOnce` when true, are omitted; `fireDate` as UTC ISO 8601.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("alertAction", alertAction)
        writer.member("alertBody", alertBody)
        writer.member("alertLaunchImage", alertLaunchImage)
        writer.member("alertTitle", alertTitle)
        writer.member("applicationIconBadgeNumber", applicationIconBadgeNumber.map(Int64.init))
        writer.member("category", category)
        writer.member("container", container)
        writer.member("createdAt", createdAt)
        writer.member("fireDate", fireDate.map(ISO8601Instant.format))
        writer.member("hasAction", hasAction ? nil : false)
        writer.member("recipient", recipient)
        if let region {
            try writer.nested("region") { (writer) throws(ModelError) in try region.write(to: &writer) }
        }
        writer.member("regionTriggersOnce", regionTriggersOnce ? nil : false)
        writer.member("repeatCalendar", repeatCalendar)
        writer.member("repeatInterval", repeatInterval?.rawValue)
        writer.member("scheduleID", scheduleID)
        writer.member("soundName", soundName)
        writer.member("timeZone", timeZone)
        if let userInfo {
            try writer.nested("userInfo") { (writer) throws(ModelError) in
                try writer.object(userInfo) { (writer, value) throws(ModelError) in try writer.value(value) }
            }
        }
        writer.member("wallClockFireDate", wallClockFireDate.map { String(ISO8601Instant.format($0).dropLast()) })
        writer.endObject()
    }
}

extension ScheduleRegion: WireEncodable {
    /// Writes the centre and radius, and the flags only when false, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        try writer.nested("latitude") { (writer) throws(ModelError) in try writer.double(latitude) }
        try writer.nested("longitude") { (writer) throws(ModelError) in try writer.double(longitude) }
        writer.member("notifyOnEntry", notifyOnEntry ? nil : false)
        writer.member("notifyOnExit", notifyOnExit ? nil : false)
        try writer.nested("radius") { (writer) throws(ModelError) in try writer.double(radius) }
        writer.endObject()
    }
}
