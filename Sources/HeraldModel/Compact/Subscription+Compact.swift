extension Subscription {
    /// Writes the subscription as a slim match carries it: no `query`, no `firesOn`.
    func writeSlim(to writer: inout CompactWriter) {
        writer.string(subscriptionID)
        writer.string(subscriptionType.rawValue)
        writer.string(container)
        writer.string(database.rawValue)
        writer.string(ownerRecordName)
        if let zoneID {
            writer.byte(1)
            writer.zoneID(zoneID)
        } else {
            writer.byte(0)
        }
        writer.bool(firesOnce)
        notificationInfo.writeCompact(to: &writer)
        if let revision {
            writer.byte(1)
            writer.int64(revision)
        } else {
            writer.byte(0)
        }
    }

    /// Reads what `writeSlim` wrote, with the checks of `init(wire:at:slim:)` in its order.
    /// - Parameter withRevision: `false` for form 3, written before subscriptions had a revision.
    init(slimCompact reader: inout CompactReader, withRevision: Bool) throws(ModelError) {
        subscriptionID = try reader.nonEmpty("subscriptionID")
        subscriptionType = try reader.wireEnum(SubscriptionType.self, "subscriptionType")
        container = try reader.nonEmpty("container")
        database = try reader.wireEnum(DatabaseScope.self, "database")
        try Self.checkType(subscriptionType, allowedIn: database)
        ownerRecordName = try reader.nonEmpty("ownerRecordName")
        query = nil
        zoneID = try reader.isPresent() ? try reader.zoneID("zoneID") : nil
        firesOn = []
        firesOnce = try reader.bool()
        do { notificationInfo = try NotificationInfo(compact: &reader) } catch { throw error.prefixed("notificationInfo") }
        revision = nil
        if withRevision, try reader.isPresent() {
            let revision = try reader.int64()
            guard revision >= 0 else { throw ModelError.negative(revision, path: "revision") }
            self.revision = revision
        }
        try checkZoneID()
    }
}

extension NotificationInfo {
    /// Every member in declaration order; absent strings and empty lists take one byte.
    func writeCompact(to writer: inout CompactWriter) {
        writer.optionalString(alertBody)
        writer.optionalString(alertLocalizationKey)
        writer.strings(alertLocalizationArgs)
        writer.optionalString(title)
        writer.optionalString(titleLocalizationKey)
        writer.strings(titleLocalizationArgs)
        writer.optionalString(subtitle)
        writer.optionalString(subtitleLocalizationKey)
        writer.strings(subtitleLocalizationArgs)
        writer.optionalString(alertActionLocalizationKey)
        writer.optionalString(alertLaunchImage)
        writer.optionalString(soundName)
        writer.bool(shouldBadge)
        writer.bool(shouldSendContentAvailable)
        writer.bool(shouldSendMutableContent)
        writer.strings(desiredKeys)
        writer.optionalString(category)
        writer.optionalString(collapseIDKey)
    }

    /// Reads what `writeCompact` wrote, with the checks of `init(wire:at:)`.
    init(compact reader: inout CompactReader) throws(ModelError) {
        self.init(
            alertBody: try reader.optionalString(),
            alertLocalizationKey: try reader.nonEmptyIfPresent("alertLocalizationKey"),
            alertLocalizationArgs: try reader.nonEmptyStrings("alertLocalizationArgs"),
            title: try reader.optionalString(),
            titleLocalizationKey: try reader.nonEmptyIfPresent("titleLocalizationKey"),
            titleLocalizationArgs: try reader.nonEmptyStrings("titleLocalizationArgs"),
            subtitle: try reader.optionalString(),
            subtitleLocalizationKey: try reader.nonEmptyIfPresent("subtitleLocalizationKey"),
            subtitleLocalizationArgs: try reader.nonEmptyStrings("subtitleLocalizationArgs"),
            alertActionLocalizationKey: try reader.nonEmptyIfPresent("alertActionLocalizationKey"),
            alertLaunchImage: try reader.optionalString(),
            soundName: try reader.optionalString(),
            shouldBadge: try reader.bool(),
            shouldSendContentAvailable: try reader.bool(),
            shouldSendMutableContent: try reader.bool(),
            desiredKeys: try reader.nonEmptyStrings("desiredKeys"),
            category: try reader.optionalString(),
            collapseIDKey: try reader.nonEmptyIfPresent("collapseIDKey"))
    }
}
