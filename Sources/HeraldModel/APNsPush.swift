/// How a notification goes to Apple Push Notification service: the request headers that
/// matter and the JSON payload (`aps` + `ck`, docs/cloudkit-behaviour.md §5). Key `apns` in a notification.
public struct APNsPush: Sendable, Hashable, Codable {
    /// The `apns-push-type` header.
    public enum PushType: String, WireEnum {
        case alert, background, voip
        public static var wireName: String { "pushType" }
    }

    /// The `apns-priority` header: 10 sends now, 5 when convenient (required for background pushes).
    public enum Priority: Int, Sendable, Hashable, CaseIterable, Codable {
        case conservesPower = 5
        case immediate = 10
    }

    /// The longest `apns-collapse-id` APNs accepts, in UTF-8 bytes.
    public static let maxCollapseIDBytes = 64

    public var pushType: PushType
    public var priority: Priority
    /// The `apns-collapse-id` header, at most 64 UTF-8 bytes.
    public var collapseID: String?
    /// The payload object (`{"aps": …, "ck": …}`).
    public var payload: JSONValue

    /// Creates a push description.
    public init(pushType: PushType, priority: Priority, collapseID: String? = nil, payload: JSONValue) {
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.payload = payload
    }

    private enum CodingKeys: String, CodingKey { case pushType, priority, collapseID, payload }

    /// Decodes and validates: priority 5 or 10, collapse ID within 64 bytes, payload an object.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pushType = try c.decode(PushType.self, forKey: .pushType)
        let number = try c.decodeInteger(.priority)
        guard let priority = Priority(rawValue: Int(clamping: number)) else {
            throw c.error(.invalidValue, "priority must be 5 or 10, got \(number)", at: .priority)
        }
        self.priority = priority
        collapseID = try c.decodeNonEmptyIfPresent(.collapseID)
        if let collapseID, collapseID.utf8.count > APNsPush.maxCollapseIDBytes {
            throw c.error(
                .invalidValue, "collapseID is \(collapseID.utf8.count) bytes, at most \(APNsPush.maxCollapseIDBytes)",
                at: .collapseID)
        }
        payload = try c.decode(JSONValue.self, forKey: .payload)
        guard case .object = payload else {
            throw c.error(.typeMismatch, "payload must be an object, got \(payload.kindDescription)", at: .payload)
        }
    }
}
