extension Match: WireDecodable, WireEncodable {
    /// Reads a match as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        let slim = try Match.isSlim(form: c.integerIfPresent("form"))
        recipient = try c.nonEmpty("recipient")
        notificationType = try c.wireEnum(NotificationType.self, "notificationType")
        queryNotificationReason = try c.optionalWireEnum(QueryNotificationReason.self, "queryNotificationReason")
        guard let subscriptionNode = c.value("subscription") else { throw c.missing("subscription") }
        subscription = try c.within("subscription") { () throws(ModelError) in
            try Subscription(wire: document, at: subscriptionNode, slim: slim)
        }
        guard let changeNode = c.value("change") else { throw c.missing("change") }
        change = try c.within("change") { () throws(ModelError) in try RecordChange(wire: document, at: changeNode) }
        notificationID = try c.nonEmpty("notificationID")
        try checkConsistency()
    }

    /// The checks across members, after reading them (the Codable path's order): a reason
    /// exactly for query matches, no read or scheduled match, the derived notification ID.
    func checkConsistency() throws(ModelError) {
        if notificationType == .query, queryNotificationReason == nil {
            throw ModelError(.missingValue, "a query match needs a queryNotificationReason", path: "queryNotificationReason")
        }
        if notificationType != .query, queryNotificationReason != nil {
            throw ModelError(.invalidValue, "only query matches have a queryNotificationReason", path: "queryNotificationReason")
        }
        if notificationType == .readNotification || notificationType == .scheduled {
            throw ModelError(
                .invalidValue, "a match cannot be a \(notificationType.rawValue) notification", path: "notificationType")
        }
        let expected = Match.notificationID(
            changeID: change.changeID, owner: subscription.ownerRecordName, subscriptionID: subscription.subscriptionID)
        guard notificationID == expected || notificationID == legacyNotificationID else {
            throw ModelError(
                .invalidValue,
                "notificationID \(notificationID) is not the one derived from changeID/owner/subscriptionID (\(expected))",
                path: "notificationID")
        }
    }

    /// Writes the slim form as `encode(to:)` does, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        let slim = slimmed()
        writer.beginObject()
        try writer.nested("change") { (writer) throws(ModelError) in try slim.change.write(to: &writer) }
        writer.member("form", Match.slimForm)
        writer.member("notificationID", notificationID)
        writer.member("notificationType", notificationType)
        writer.member("queryNotificationReason", queryNotificationReason)
        writer.member("recipient", recipient)
        try writer.nested("subscription") { (writer) throws(ModelError) in try slim.subscription.write(to: &writer, slim: true) }
        writer.endObject()
    }
}
