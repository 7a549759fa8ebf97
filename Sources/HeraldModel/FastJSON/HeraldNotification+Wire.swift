extension HeraldNotification: WireEncodable {
    /// The push payload's bytes and 1 KB for the rest (a typical notification's members
    /// and rendered texts take 600–900 bytes).
    public var wireSizeHint: Int { 1024 + (apns?.encodedPayload?.count ?? 0) }

    /// Writes the notification as the synthesized `encode(to:)` does (the `notifications`
    /// topic's documented JSON, docs/ARCHITECTURE.md §5.3), keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("alertAction", alertAction)
        writer.member("alertActionLocalizationKey", alertActionLocalizationKey)
        writer.member("alertBody", alertBody)
        writer.member("alertLaunchImage", alertLaunchImage)
        writer.member("alertLocalizationArgs", alertLocalizationArgs)
        writer.member("alertLocalizationKey", alertLocalizationKey)
        if let apns {
            try writer.nested("apns") { (writer) throws(ModelError) in try apns.write(to: &writer) }
        }
        writer.member("badge", badge.map(Int64.init))
        writer.member("category", category)
        writer.member("containerIdentifier", containerIdentifier)
        writer.member("createdAt", createdAt)
        writer.member("databaseScope", databaseScope)
        writer.member("excludedDevice", excludedDevice)
        writer.member("fireDate", fireDate)
        writer.member("hasAction", hasAction)
        writer.member("isPruned", isPruned)
        writer.member("notificationID", notificationID)
        writer.member("notificationType", notificationType)
        writer.member("queryNotificationReason", queryNotificationReason)
        writer.member("recipient", recipient)
        if let recordFields {
            try writer.nested("recordFields") { (writer) throws(ModelError) in try writer.value(.object(recordFields)) }
        }
        if let recordID {
            writer.key("recordID")
            writer.beginObject()
            writer.member("recordName", recordID.recordName)
            writer.key("zoneID")
            writer.zoneID(recordID.zoneID)
            writer.endObject()
        }
        if let recordZoneID {
            writer.key("recordZoneID")
            writer.zoneID(recordZoneID)
        }
        if let rendered {
            writer.key("rendered")
            writer.beginObject()
            writer.member("body", rendered.body)
            writer.member("locale", rendered.locale)
            writer.member("subtitle", rendered.subtitle)
            writer.member("title", rendered.title)
            writer.endObject()
        }
        writer.member("scheduleID", scheduleID)
        writer.member("sequence", sequence)
        writer.member("soundName", soundName)
        writer.member("subscriptionID", subscriptionID)
        writer.member("subscriptionOwnerUserRecordID", subscriptionOwnerUserRecordID)
        writer.member("subtitle", subtitle)
        writer.member("subtitleLocalizationArgs", subtitleLocalizationArgs)
        writer.member("subtitleLocalizationKey", subtitleLocalizationKey)
        writer.member("title", title)
        writer.member("titleLocalizationArgs", titleLocalizationArgs)
        writer.member("titleLocalizationKey", titleLocalizationKey)
        writer.member("trigger", trigger)
        if let userInfo {
            try writer.nested("userInfo") { (writer) throws(ModelError) in try writer.value(.object(userInfo)) }
        }
        writer.endObject()
    }
}

extension APNsPush {
    /// Writes the push as the synthesized `encode(to:)` does, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("collapseID", collapseID)
        if let encodedPayload {
            writer.key("payload")
            writer.encoded(encodedPayload)
        } else {
            try writer.nested("payload") { (writer) throws(ModelError) in try writer.value(payload) }
        }
        writer.member("priority", Int64(priority.rawValue))
        writer.member("pushType", pushType)
        writer.endObject()
    }
}
