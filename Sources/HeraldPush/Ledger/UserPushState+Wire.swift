import HeraldModel

extension UserPushState: WireEncodable {
    /// Writes the state as the synthesized `encode(to:)` does (`WireCodec`: keys in byte
    /// order, optional members left out when nil): the push stage writes every changed user's
    /// state to `push-state` after each batch, and Foundation's encoder was an eighth of its
    /// CPU (perf, stage-level `herald bench push`).
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.key("appliedDevices")
        writer.integer(appliedDevices)
        writer.key("devices")
        try writer.object(devices) { (writer, device) throws(ModelError) in device.write(to: &writer) }
        writer.key("handled")
        handled.write(to: &writer)
        writer.key("pending")
        writer.beginArray()
        for (index, push) in pending.enumerated() {
            do { try push.write(to: &writer) } catch {
                throw ModelError(error.code, error.reason, path: "pending[\(index)]" + (error.path.isEmpty ? "" : "." + error.path))
            }
        }
        writer.endArray()
        writer.key("recent")
        writer.strings(recent)
        writer.key("sent")
        try writer.object(sent) { (writer, offset) throws(ModelError) in writer.integer(offset) }
        writer.key("user")
        writer.string(user)
        writer.endObject()
    }
}

extension HandledSequences {
    /// Writes the sequences as the synthesized `encode(to:)` does (`through` left out when nil).
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("above")
        writer.beginArray()
        for sequence in above { writer.integer(sequence) }
        writer.endArray()
        if let through {
            writer.key("through")
            writer.integer(through)
        }
        writer.endObject()
    }
}

extension PendingPush {
    /// Writes the push as the synthesized `encode(to:)` does, keys in byte order.
    func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.key("apns")
        try apns.write(to: &writer)
        writer.key("attempts")
        writer.integer(Int64(attempts))
        writer.key("createdAt")
        writer.integer(createdAt)
        writer.key("deviceKey")
        writer.string(deviceKey)
        writer.key("due")
        writer.integer(due)
        writer.key("expiration")
        writer.integer(expiration)
        writer.key("lastReason")
        writer.string(lastReason)
        writer.key("notificationID")
        writer.string(notificationID)
        writer.key("offset")
        writer.integer(offset)
        writer.endObject()
    }
}

extension Device {
    /// Writes the device as the synthesized `encode(to:)` does, keys in byte order.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let appID {
            writer.key("appID")
            writer.string(appID)
        }
        writer.key("container")
        writer.string(container)
        if let environment {
            writer.key("environment")
            writer.string(environment.rawValue)
        }
        if let locale {
            writer.key("locale")
            writer.string(locale)
        }
        writer.key("platform")
        writer.string(platform.rawValue)
        writer.key("registeredAt")
        writer.integer(registeredAt)
        writer.key("token")
        writer.string(token)
        if let topic {
            writer.key("topic")
            writer.string(topic)
        }
        writer.key("user")
        writer.string(user)
        writer.endObject()
    }
}
