extension ScheduledFiring: WireDecodable {
    /// Reads a firing as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        firingID = try c.nonEmpty("firingID")
        recipient = try c.nonEmpty("recipient")
        container = try c.nonEmpty("container")
        scheduleID = try c.nonEmpty("scheduleID")
        fireDate = try c.nonNegative("fireDate")
        trigger = try c.wireEnum(Trigger.self, "trigger")
        guard let scheduleNode = c.value("schedule") else { throw c.missing("schedule") }
        schedule = try c.within("schedule") { () throws(ModelError) in try Schedule(wire: document, at: scheduleNode) }
        if recipient != schedule.recipient {
            throw ModelError(.invalidValue, "\"\(recipient)\" is not the schedule's recipient \"\(schedule.recipient)\"", path: "recipient")
        }
        if container != schedule.container {
            throw ModelError(.invalidValue, "\"\(container)\" is not the schedule's container \"\(schedule.container)\"", path: "container")
        }
        if scheduleID != schedule.scheduleID {
            throw ModelError(
                .invalidValue, "\"\(scheduleID)\" is not the schedule's scheduleID \"\(schedule.scheduleID)\"", path: "scheduleID")
        }
        let expected = Self.firingID(container: container, recipient: recipient, scheduleID: scheduleID, instant: fireDate)
        guard firingID == expected else {
            throw ModelError(
                .invalidValue,
                "firingID \(firingID) is not the one derived from container/recipient/scheduleID@fireDate (\(expected))",
                path: "firingID")
        }
    }
}

extension ScheduledFiring: WireEncodable {
    /// Writes the firing as the synthesized `encode(to:)` does, keys in byte order: the
    /// schedule stage writes one per firing.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("container", container)
        writer.member("fireDate", fireDate)
        writer.member("firingID", firingID)
        writer.member("recipient", recipient)
        try writer.nested("schedule") { (writer) throws(ModelError) in try schedule.write(to: &writer) }
        writer.member("scheduleID", scheduleID)
        writer.member("trigger", trigger)
        writer.endObject()
    }
}

