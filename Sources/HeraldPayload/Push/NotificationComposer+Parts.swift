import HeraldModel

extension NotificationComposer {
    /// The notification of docs/ARCHITECTURE.md §5.3: identity, kind-specific keys, every alert
    /// value and every desired key (`recordFields`, unpruned), and its push.
    static func notification(
        _ match: Match, kind: PushPayload.Kind, values: PayloadValues, rendered: RenderedAlert?, badge: Int?,
        sequence: Int64, createdAt: Int64, isPruned: Bool, apns: APNsPush
    ) -> HeraldNotification {
        // Read in place, not bound to locals (copies, see `compose`).
        var notification = HeraldNotification(
            notificationID: match.notificationID, notificationType: match.notificationType,
            containerIdentifier: match.subscription.container, recipient: match.recipient, sequence: sequence,
            createdAt: createdAt, subscriptionID: match.subscription.subscriptionID,
            subscriptionOwnerUserRecordID: match.subscription.ownerRecordName)
        switch kind {
        case .query:
            notification.queryNotificationReason = match.queryNotificationReason
            notification.databaseScope = match.subscription.database
            notification.recordID = match.change.recordID
        case .zone:
            notification.recordZoneID = zone(of: match, kind: kind)
        case .database:
            notification.databaseScope = match.subscription.database
        }
        notification.badge = badge
        notification.soundName = match.subscription.notificationInfo.soundName
        notification.alertBody = match.subscription.notificationInfo.alertBody
        notification.alertLocalizationKey = match.subscription.notificationInfo.alertLocalizationKey
        notification.alertLocalizationArgs = values.alert.texts.isEmpty ? nil : values.alert.texts
        notification.title = match.subscription.notificationInfo.title
        notification.titleLocalizationKey = match.subscription.notificationInfo.titleLocalizationKey
        notification.titleLocalizationArgs = values.title.texts.isEmpty ? nil : values.title.texts
        notification.subtitle = match.subscription.notificationInfo.subtitle
        notification.subtitleLocalizationKey = match.subscription.notificationInfo.subtitleLocalizationKey
        notification.subtitleLocalizationArgs = values.subtitle.texts.isEmpty ? nil : values.subtitle.texts
        notification.alertActionLocalizationKey = match.subscription.notificationInfo.alertActionLocalizationKey
        notification.alertLaunchImage = match.subscription.notificationInfo.alertLaunchImage
        notification.category = match.subscription.notificationInfo.category
        notification.rendered = rendered
        notification.excludedDevice = match.change.originDevice.flatMap { $0.isEmpty ? nil : $0 }
        // Before pruning: the notification keeps every desired key.
        if let desiredKeys = values.desiredKeys, !desiredKeys.isEmpty {
            // `PayloadValues` lists each key once. Made at its size through the specialized
            // initializer: `reserveCapacity` is not specialized and looked up the dictionary's
            // generic metadata on every call (1% in perf); a lazy map, not the labelled pairs
            // cast (copied) to unlabelled ones first.
            notification.recordFields = Dictionary(uniqueKeysWithValues: desiredKeys.lazy.map { ($0.key, $0.value) })
        }
        notification.isPruned = isPruned
        notification.apns = apns
        return notification
    }

    /// The full, unpruned push payload.
    static func payload(_ match: Match, kind: PushPayload.Kind, values: PayloadValues, badge: Int?) -> PushPayload {
        var payload = PushPayload(kind: kind)
        setFixedValues(of: match.subscription, into: &payload)
        payload.set(.titleLocArgs, texts: values.title.texts)
        payload.set(.subtitleLocArgs, texts: values.subtitle.texts)
        payload.set(.locArgs, texts: values.alert.texts)
        if let badge { payload.set(.badge, integer: Int64(badge)) }
        let zone = zone(of: match, kind: kind)
        payload.set(.nid, text: match.notificationID)
        payload.set(.zid, text: zone.zoneName)
        payload.set(.zoid, text: zone.ownerRecordName)
        if kind == .query {
            payload.set(.rid, text: match.change.recordName)
            if let reason = match.queryNotificationReason { payload.set(.fo, integer: Int64(pushCode(of: reason))) }
            payload.set(.af, orderedMembers: values.desiredKeys ?? [])
        }
        return payload
    }

    /// Sets the values that depend only on the subscription (its notification info and
    /// identity), the same for every notification it sends: everything but the slots of
    /// ``PayloadTemplate/Hole``.
    static func setFixedValues(of subscription: Subscription, into payload: inout PushPayload) {
        let info = subscription.notificationInfo
        payload.set(.title, text: info.title)
        payload.set(.titleLocKey, text: info.titleLocalizationKey)
        payload.set(.subtitle, text: info.subtitle)
        payload.set(.subtitleLocKey, text: info.subtitleLocalizationKey)
        payload.set(.body, text: info.alertBody)
        payload.set(.locKey, text: info.alertLocalizationKey)
        payload.set(.actionLocKey, text: info.alertActionLocalizationKey)
        payload.set(.launchImage, text: info.alertLaunchImage)
        payload.set(.sound, text: info.soundName)
        if info.shouldSendContentAvailable { payload.set(.contentAvailable, integer: 1) }
        if info.shouldSendMutableContent { payload.set(.mutableContent, integer: 1) }
        payload.set(.category, text: info.category)
        payload.set(.ce, integer: 2)
        payload.set(.cid, text: subscription.container)
        payload.set(.ckuserid, text: subscription.ownerRecordName)
        payload.set(.sid, text: subscription.subscriptionID)
        payload.set(.dbs, integer: Int64(subscription.database.pushCode))
    }

    /// `zid`/`zoid`: the subscribed zone for a zone notification, else the changed record's zone.
    static func zone(of match: Match, kind: PushPayload.Kind) -> ZoneID {
        kind == .zone ? match.subscription.zoneID ?? match.change.zoneID : match.change.zoneID
    }
}
