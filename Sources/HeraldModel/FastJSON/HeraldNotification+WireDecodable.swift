extension HeraldNotification: WireDecodable {
    /// Reads a notification as `init(from:)` does (same checks in the same order): the push
    /// stage reads every notification, and Foundation's decoder (its keyed containers, and
    /// `JSONValue`'s try-each-type over the push payload) was a third of its CPU.
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        notificationID = try c.nonEmpty("notificationID")
        notificationType = try c.wireEnum(NotificationType.self, "notificationType")
        containerIdentifier = try c.nonEmpty("containerIdentifier")
        subscriptionID = try c.nonEmptyIfPresent("subscriptionID")
        subscriptionOwnerUserRecordID = try c.nonEmptyIfPresent("subscriptionOwnerUserRecordID")
        recipient = try c.nonEmpty("recipient")
        sequence = try c.nonNegative("sequence")
        queryNotificationReason = try c.optionalWireEnum(QueryNotificationReason.self, "queryNotificationReason")
        databaseScope = try c.optionalWireEnum(DatabaseScope.self, "databaseScope")
        recordID = try c.present("recordID").map { (node) throws(ModelError) in
            try c.within("recordID") { () throws(ModelError) in try RecordID(wire: document, at: node) }
        }
        recordZoneID = try c.optionalZoneID("recordZoneID")
        recordFields = try c.optionalObject("recordFields")
        badge = try c.nonNegativeIfPresent("badge").map { Int(clamping: $0) }
        soundName = try c.optionalString("soundName")
        alertBody = try c.optionalString("alertBody")
        alertLocalizationKey = try c.optionalString("alertLocalizationKey")
        alertLocalizationArgs = try c.optionalStrings("alertLocalizationArgs")
        title = try c.optionalString("title")
        titleLocalizationKey = try c.optionalString("titleLocalizationKey")
        titleLocalizationArgs = try c.optionalStrings("titleLocalizationArgs")
        subtitle = try c.optionalString("subtitle")
        subtitleLocalizationKey = try c.optionalString("subtitleLocalizationKey")
        subtitleLocalizationArgs = try c.optionalStrings("subtitleLocalizationArgs")
        alertActionLocalizationKey = try c.optionalString("alertActionLocalizationKey")
        alertLaunchImage = try c.optionalString("alertLaunchImage")
        category = try c.optionalString("category")
        scheduleID = try c.nonEmptyIfPresent("scheduleID")
        fireDate = try c.integerIfPresent("fireDate")
        trigger = try c.nonEmptyIfPresent("trigger")
        alertAction = try c.optionalString("alertAction")
        hasAction = try c.optionalBool("hasAction")
        userInfo = try c.optionalObject("userInfo")
        rendered = try c.present("rendered").map { (node) throws(ModelError) in
            try c.within("rendered") { () throws(ModelError) in try RenderedAlert(wire: document, at: node) }
        }
        isPruned = try c.optionalBool("isPruned") ?? false
        excludedDevice = try c.nonEmptyIfPresent("excludedDevice")
        createdAt = try c.nonNegative("createdAt")
        apns = try c.present("apns").map { (node) throws(ModelError) in
            try c.within("apns") { () throws(ModelError) in try APNsPush(wire: document, at: node) }
        }
        try checkRequiredKeys()
    }

    /// The members a notification of its type needs, as the Codable path checks them.
    private func checkRequiredKeys() throws(ModelError) {
        guard let key = missingRequiredKey else { return }
        throw ModelError(.missingValue, "a \(notificationType.rawValue) notification needs \(key)", path: key)
    }
}

extension RecordID {
    /// Reads `{recordName, zoneID}` as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        let recordName = try c.nonEmpty("recordName")
        self.init(recordName: recordName, zoneID: try c.zoneID("zoneID"))
    }
}

extension RenderedAlert {
    /// Reads `{locale, title?, subtitle?, body?}` as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        let locale = try c.nonEmpty("locale")
        self.init(
            locale: locale, title: try c.optionalString("title"), subtitle: try c.optionalString("subtitle"),
            body: try c.optionalString("body"))
    }
}

extension APNsPush {
    /// Reads a push as `init(from:)` does: priority 5 or 10, a collapse ID within 64 bytes,
    /// the payload an object.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        let pushType = try c.wireEnum(PushType.self, "pushType")
        guard let number = try c.integerIfPresent("priority") else { throw c.missing("priority") }
        guard let priority = Priority(rawValue: Int(clamping: number)) else {
            throw ModelError(.invalidValue, "priority must be 5 or 10, got \(number)", path: "priority")
        }
        let collapseID = try c.nonEmptyIfPresent("collapseID")
        if let collapseID, collapseID.utf8.count > APNsPush.maxCollapseIDBytes {
            throw ModelError(
                .invalidValue, "collapseID is \(collapseID.utf8.count) bytes, at most \(APNsPush.maxCollapseIDBytes)",
                path: "collapseID")
        }
        guard let payloadNode = c.value("payload") else { throw c.missing("payload") }
        // A payload as `JSONWriter` wrote it (compose's) is kept as bytes: no tree built, and
        // the push stage sends them as they are.
        if document.kind(payloadNode) == .object, let bytes = document.canonicalBytes(payloadNode) {
            self.init(pushType: pushType, priority: priority, collapseID: collapseID, encodedPayload: Array(bytes))
            return
        }
        let payload = try c.within("payload") { () throws(ModelError) in try document.jsonValue(payloadNode) }
        guard case .object = payload else {
            throw ModelError(.typeMismatch, "payload must be an object, got \(payload.kindDescription)", path: "payload")
        }
        self.init(pushType: pushType, priority: priority, collapseID: collapseID, payload: payload)
    }
}

extension JSONMembers {
    /// An optional JSON object (`decodeIfPresent([String: JSONValue].self, forKey:)`).
    func optionalObject(_ key: StaticString) throws(ModelError) -> [String: JSONValue]? {
        guard let node = present(key) else { return nil }
        let json = try within(key) { () throws(ModelError) in try document.jsonValue(node) }
        guard case .object(let members) = json else {
            throw ModelError(.typeMismatch, "expected an object but found \(document.foundDescription(node))", path: "\(key)")
        }
        return members
    }
}
