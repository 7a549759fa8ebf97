import HeraldModel

extension UserStreamState: WireEncodable {
    /// Writes the state as `encode(to:)` does, keys in byte order: the compose
    /// stage's changelog entry, written once per user per batch (up to 512 fingerprints, 5.5 KB).
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.key("appliedOffsets")
        try writer.object(appliedOffsets.bySource) { (writer, offset) throws(ModelError) in writer.integer(offset) }
        writer.key("badges")
        try writer.object(badges) { (writer, count) throws(ModelError) in writer.integer(Int64(count)) }
        writer.key("firedOnce")
        writer.strings(firedOnce)
        writer.key("nextSequence")
        writer.integer(nextSequence)
        writer.key("recentNotifications")
        writer.string(recentNotifications.base64)
        writer.key("recipient")
        writer.string(recipient)
        writer.endObject()
    }
}
