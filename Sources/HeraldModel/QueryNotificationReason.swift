/// Why a query subscription fired (CKQueryNotification.Reason, plus Herald's enter / leave).
public enum QueryNotificationReason: String, WireEnum {
    case recordCreated
    case recordUpdated
    case recordDeleted
    /// An update made the record match (it did not before).
    case recordEntered
    /// An update made the record stop matching.
    case recordLeft

    public static var wireName: String { "queryNotificationReason" }
}
