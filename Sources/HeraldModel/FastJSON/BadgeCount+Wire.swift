extension BadgeCount: WireDecodable {
    /// Reads a badge count as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        recipient = try c.nonEmpty("recipient")
        containerIdentifier = try c.nonEmpty("containerIdentifier")
        badge = Int(clamping: try c.nonNegative("badge"))
    }
}

extension BadgeCount: WireEncodable {
    /// Writes the count as the synthesized `encode(to:)` does, keys in byte order: compose
    /// writes one per badged notification.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("badge", Int64(badge))
        writer.member("containerIdentifier", containerIdentifier)
        writer.member("recipient", recipient)
        writer.endObject()
    }
}
