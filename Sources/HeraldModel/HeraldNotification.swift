/// A notification as appended to a user's stream (topic `notifications`, key = recipient)
/// and as a fetch returns it: the CKNotification properties plus Herald's own (docs/ARCHITECTURE.md §5.3).
///
/// Optional keys are omitted when `nil`. The alert fields hold the *resolved* values
/// (localization arguments are the record's values, not field names); `rendered` is the
/// text in the recipient's locale and `apns` the push exactly as sent, possibly pruned
/// (`isPruned`) while this value keeps everything.
public struct HeraldNotification: Sendable, Hashable, Codable {
    /// Deterministic lower-case UUID (`Match.notificationID(…)` or a schedule's).
    public var notificationID: String
    public var notificationType: NotificationType
    public var containerIdentifier: String
    public var subscriptionID: String?
    public var subscriptionOwnerUserRecordID: String?
    /// The user whose stream this is (the Kafka key).
    public var recipient: String
    /// Position in the recipient's stream, increasing by one per notification.
    public var sequence: Int64
    /// Query notifications.
    public var queryNotificationReason: QueryNotificationReason?
    /// Query and database notifications.
    public var databaseScope: DatabaseScope?
    /// Query notifications: the record that changed.
    public var recordID: RecordID?
    /// Zone notifications: the zone that changed.
    public var recordZoneID: ZoneID?
    /// Query notifications: the desired keys' values, plain JSON.
    public var recordFields: [String: JSONValue]?
    /// The user's running badge count after this notification.
    public var badge: Int?
    public var soundName: String?
    public var alertBody: String?
    public var alertLocalizationKey: String?
    public var alertLocalizationArgs: [String]?
    public var title: String?
    public var titleLocalizationKey: String?
    public var titleLocalizationArgs: [String]?
    public var subtitle: String?
    public var subtitleLocalizationKey: String?
    public var subtitleLocalizationArgs: [String]?
    public var alertActionLocalizationKey: String?
    public var alertLaunchImage: String?
    public var category: String?
    /// Scheduled notifications: the schedule that fired.
    public var scheduleID: String?
    /// Scheduled notifications: the instant the firing is for (the occurrence, or the
    /// location report of a region crossing), milliseconds since 1970.
    public var fireDate: Int64?
    /// Scheduled notifications: `date`, `immediate`, `regionEntry` or `regionExit`.
    public var trigger: String?
    /// Scheduled notifications: the action button's title (UILocalNotification `alertAction`).
    public var alertAction: String?
    /// Scheduled notifications: whether the alert has an action button (default true).
    public var hasAction: Bool?
    /// Scheduled notifications: the app's custom values, also at the top level of the push.
    public var userInfo: [String: JSONValue]?
    public var rendered: RenderedAlert?
    /// Whether the push had to drop fields to fit (this value still has them all).
    public var isPruned: Bool
    /// The device that made the change (not pushed to).
    public var excludedDevice: String?
    /// When Herald composed it, milliseconds since 1970.
    public var createdAt: Int64
    /// The push; absent for a `readNotification`.
    public var apns: APNsPush?

    /// Creates a notification with the required properties; set the rest as needed.
    ///
    /// Inlinable: called across modules (the composer), the out-of-line init built the
    /// ~40-property value in a temporary and copied it out (every string retained, then
    /// released; perf of `herald bench payload`).
    @inlinable
    public init(
        notificationID: String, notificationType: NotificationType, containerIdentifier: String,
        recipient: String, sequence: Int64, createdAt: Int64, subscriptionID: String? = nil,
        subscriptionOwnerUserRecordID: String? = nil, isPruned: Bool = false
    ) {
        self.notificationID = notificationID
        self.notificationType = notificationType
        self.containerIdentifier = containerIdentifier
        self.recipient = recipient
        self.sequence = sequence
        self.createdAt = createdAt
        self.subscriptionID = subscriptionID
        self.subscriptionOwnerUserRecordID = subscriptionOwnerUserRecordID
        self.isPruned = isPruned
    }

    private enum CodingKeys: String, CodingKey {
        case notificationID, notificationType, containerIdentifier, subscriptionID, subscriptionOwnerUserRecordID
        case recipient, sequence, queryNotificationReason, databaseScope, recordID, recordZoneID, recordFields
        case badge, soundName, alertBody, alertLocalizationKey, alertLocalizationArgs, title
        case titleLocalizationKey, titleLocalizationArgs, subtitle, subtitleLocalizationKey
        case subtitleLocalizationArgs, alertActionLocalizationKey, alertLaunchImage, category, rendered
        case scheduleID, fireDate, trigger, alertAction, hasAction, userInfo
        case isPruned, excludedDevice, createdAt, apns
    }

    /// Decodes and validates: IDs non-empty, counters non-negative, and the keys each
    /// notification type needs (query: subscriptionID, reason, recordID, databaseScope;
    /// recordZone: subscriptionID, recordZoneID; database: subscriptionID, databaseScope;
    /// scheduled: scheduleID, fireDate).
    /// - Throws: `ModelError` (or `DecodingError`, which `WireCodec` translates) at the offending path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        notificationID = try c.decodeNonEmpty(.notificationID)
        notificationType = try c.decode(NotificationType.self, forKey: .notificationType)
        containerIdentifier = try c.decodeNonEmpty(.containerIdentifier)
        subscriptionID = try c.decodeNonEmptyIfPresent(.subscriptionID)
        subscriptionOwnerUserRecordID = try c.decodeNonEmptyIfPresent(.subscriptionOwnerUserRecordID)
        recipient = try c.decodeNonEmpty(.recipient)
        sequence = try c.decodeNonNegative(.sequence)
        queryNotificationReason = try c.decodeIfPresent(QueryNotificationReason.self, forKey: .queryNotificationReason)
        databaseScope = try c.decodeIfPresent(DatabaseScope.self, forKey: .databaseScope)
        recordID = try c.decodeIfPresent(RecordID.self, forKey: .recordID)
        recordZoneID = try c.decodeIfPresent(ZoneID.self, forKey: .recordZoneID)
        recordFields = try c.decodeIfPresent([String: JSONValue].self, forKey: .recordFields)
        badge = try c.decodeNonNegativeIfPresent(.badge).map { Int(clamping: $0) }
        soundName = try c.decodeIfPresent(String.self, forKey: .soundName)
        alertBody = try c.decodeIfPresent(String.self, forKey: .alertBody)
        alertLocalizationKey = try c.decodeIfPresent(String.self, forKey: .alertLocalizationKey)
        alertLocalizationArgs = try c.decodeIfPresent([String].self, forKey: .alertLocalizationArgs)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        titleLocalizationKey = try c.decodeIfPresent(String.self, forKey: .titleLocalizationKey)
        titleLocalizationArgs = try c.decodeIfPresent([String].self, forKey: .titleLocalizationArgs)
        subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
        subtitleLocalizationKey = try c.decodeIfPresent(String.self, forKey: .subtitleLocalizationKey)
        subtitleLocalizationArgs = try c.decodeIfPresent([String].self, forKey: .subtitleLocalizationArgs)
        alertActionLocalizationKey = try c.decodeIfPresent(String.self, forKey: .alertActionLocalizationKey)
        alertLaunchImage = try c.decodeIfPresent(String.self, forKey: .alertLaunchImage)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        scheduleID = try c.decodeNonEmptyIfPresent(.scheduleID)
        fireDate = try c.decodeIntegerIfPresent(.fireDate)
        trigger = try c.decodeNonEmptyIfPresent(.trigger)
        alertAction = try c.decodeIfPresent(String.self, forKey: .alertAction)
        hasAction = try c.decodeIfPresent(Bool.self, forKey: .hasAction)
        userInfo = try c.decodeIfPresent([String: JSONValue].self, forKey: .userInfo)
        rendered = try c.decodeIfPresent(RenderedAlert.self, forKey: .rendered)
        isPruned = try c.decodeIfPresent(Bool.self, forKey: .isPruned) ?? false
        excludedDevice = try c.decodeNonEmptyIfPresent(.excludedDevice)
        createdAt = try c.decodeNonNegative(.createdAt)
        apns = try c.decodeIfPresent(APNsPush.self, forKey: .apns)
        try requireKeys(c)
    }

    private func requireKeys(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        guard let key = missingRequiredCodingKey else { return }
        throw c.error(.missingValue, "a \(notificationType.rawValue) notification needs \(key.rawValue)", at: key)
    }

    /// The first member a notification of its type needs and does not have, if any: checked
    /// after every member is read, by this decoder and the wire reader (`init(wire:at:)`).
    var missingRequiredKey: String? { missingRequiredCodingKey?.rawValue }

    private var missingRequiredCodingKey: CodingKeys? {
        switch notificationType {
        case .query:
            if subscriptionID == nil { return .subscriptionID }
            if queryNotificationReason == nil { return .queryNotificationReason }
            if recordID == nil { return .recordID }
            if databaseScope == nil { return .databaseScope }
        case .recordZone:
            if subscriptionID == nil { return .subscriptionID }
            if recordZoneID == nil { return .recordZoneID }
        case .database:
            if subscriptionID == nil { return .subscriptionID }
            if databaseScope == nil { return .databaseScope }
        case .scheduled:
            if scheduleID == nil { return .scheduleID }
            if fireDate == nil { return .fireDate }
        case .readNotification:
            break
        }
        return nil
    }
}
