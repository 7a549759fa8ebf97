extension NotificationRead: WireDecodable {
    /// Reads a read as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        recipient = try c.nonEmpty("recipient")
        containerIdentifier = try c.nonEmpty("containerIdentifier")
        guard let ids = try c.nonEmptyStringsIfPresent("notificationIDs") else { throw c.missing("notificationIDs") }
        guard (1...Self.maximumNotificationIDs).contains(ids.count) else {
            throw ModelError(
                .invalidValue, "must hold 1 to \(Self.maximumNotificationIDs) IDs, got \(ids.count)", path: "notificationIDs")
        }
        notificationIDs = ids
        readAt = try c.nonNegative("readAt")
    }
}

extension NotificationRead: WireEncodable {
    /// Writes the read as the synthesized `encode(to:)` does, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("containerIdentifier", containerIdentifier)
        writer.member("notificationIDs", notificationIDs)
        writer.member("readAt", readAt)
        writer.member("recipient", recipient)
        writer.endObject()
    }
}
