/// The kind of a notification (CKNotificationType; wire names are the Swift case names).
public enum NotificationType: String, WireEnum {
    case query
    case recordZone
    case database
    /// A notification the user already marked read: a fetch returns only its ID.
    case readNotification
    /// Herald's own: a scheduled or region-triggered notification (UILocalNotification
    /// semantics, docs/cloudkit-behaviour.md §10) that Herald fired on the user's behalf.
    case scheduled

    public static var wireName: String { "notificationType" }

    /// CloudKit's numeric value: query 1, recordZone 2, readNotification 3, database 4;
    /// 0 for `scheduled`, which CloudKit does not have.
    public var code: Int {
        switch self {
        case .query: 1
        case .recordZone: 2
        case .readNotification: 3
        case .database: 4
        case .scheduled: 0
        }
    }
}
