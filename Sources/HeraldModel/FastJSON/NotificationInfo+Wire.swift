extension NotificationInfo {
    /// Reads notification info as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        alertBody = try c.optionalString("alertBody")
        alertLocalizationKey = try c.nonEmptyIfPresent("alertLocalizationKey")
        alertLocalizationArgs = try c.nonEmptyStringsIfPresent("alertLocalizationArgs") ?? []
        title = try c.optionalString("title")
        titleLocalizationKey = try c.nonEmptyIfPresent("titleLocalizationKey")
        titleLocalizationArgs = try c.nonEmptyStringsIfPresent("titleLocalizationArgs") ?? []
        subtitle = try c.optionalString("subtitle")
        subtitleLocalizationKey = try c.nonEmptyIfPresent("subtitleLocalizationKey")
        subtitleLocalizationArgs = try c.nonEmptyStringsIfPresent("subtitleLocalizationArgs") ?? []
        alertActionLocalizationKey = try c.nonEmptyIfPresent("alertActionLocalizationKey")
        alertLaunchImage = try c.optionalString("alertLaunchImage")
        soundName = try c.optionalString("soundName")
        shouldBadge = try c.optionalBool("shouldBadge") ?? false
        shouldSendContentAvailable = try c.optionalBool("shouldSendContentAvailable") ?? false
        shouldSendMutableContent = try c.optionalBool("shouldSendMutableContent") ?? false
        desiredKeys = try c.nonEmptyStringsIfPresent("desiredKeys") ?? []
        category = try c.optionalString("category")
        collapseIDKey = try c.nonEmptyIfPresent("collapseIDKey")
    }

    /// Writes only what is set, as `encode(to:)` does, keys in byte order.
    func write(to writer: inout JSONWriter) {
        func list(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }
        writer.beginObject()
        writer.member("alertActionLocalizationKey", alertActionLocalizationKey)
        writer.member("alertBody", alertBody)
        writer.member("alertLaunchImage", alertLaunchImage)
        writer.member("alertLocalizationArgs", list(alertLocalizationArgs))
        writer.member("alertLocalizationKey", alertLocalizationKey)
        writer.member("category", category)
        writer.member("collapseIDKey", collapseIDKey)
        writer.member("desiredKeys", list(desiredKeys))
        writer.member("shouldBadge", shouldBadge ? true : nil)
        writer.member("shouldSendContentAvailable", shouldSendContentAvailable ? true : nil)
        writer.member("shouldSendMutableContent", shouldSendMutableContent ? true : nil)
        writer.member("soundName", soundName)
        writer.member("subtitle", subtitle)
        writer.member("subtitleLocalizationArgs", list(subtitleLocalizationArgs))
        writer.member("subtitleLocalizationKey", subtitleLocalizationKey)
        writer.member("title", title)
        writer.member("titleLocalizationArgs", list(titleLocalizationArgs))
        writer.member("titleLocalizationKey", titleLocalizationKey)
        writer.endObject()
    }
}
