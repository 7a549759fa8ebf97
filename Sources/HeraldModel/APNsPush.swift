import Foundation

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
    /// The payload object (`{"aps": …, "ck": …}`). Read from ``encodedPayload`` when the
    /// push was created from bytes (a parse on each read: the compose and push stages never read it).
    public var payload: JSONValue {
        get {
            switch content {
            case .value(let value): value
            case .encoded(let bytes): Self.parse(bytes)
            }
        }
        set { content = .value(newValue) }
    }

    /// The payload as `WireCodec` writes it (compact, keys sorted), when the push was
    /// created from those bytes; `nil` when it holds a ``payload`` value.
    public var encodedPayload: [UInt8]? {
        if case .encoded(let bytes) = content { return bytes }
        return nil
    }

    /// The payload in one of its two forms: the composer writes the bytes once and the
    /// notification's encoding copies them, instead of building a tree only to write it.
    private enum Content: Sendable {
        case value(JSONValue)
        case encoded([UInt8])
    }

    private var content: Content

    /// Creates a push description.
    public init(pushType: PushType, priority: Priority, collapseID: String? = nil, payload: JSONValue) {
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        content = .value(payload)
    }

    /// Creates a push description whose payload is given as compact JSON with its object
    /// keys sorted by UTF-8 bytes, exactly as `WireCodec` writes the payload value (the
    /// caller's promise; a notification's encoding copies these bytes as they are). Bytes
    /// that are not JSON read as an empty object.
    public init(pushType: PushType, priority: Priority, collapseID: String? = nil, encodedPayload: [UInt8]) {
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        content = .encoded(encodedPayload)
    }

    private static func parse(_ bytes: [UInt8]) -> JSONValue {
        guard let document = try? JSONDocument(Data(bytes)),
              let value = try? document.jsonValue(JSONDocument.root) else { return .object([:]) }
        return value
    }

    public static func == (lhs: APNsPush, rhs: APNsPush) -> Bool {
        lhs.pushType == rhs.pushType && lhs.priority == rhs.priority && lhs.collapseID == rhs.collapseID
            && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pushType)
        hasher.combine(priority)
        hasher.combine(collapseID)
        hasher.combine(payload)
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
        let payload = try c.decode(JSONValue.self, forKey: .payload)
        content = .value(payload)
        guard case .object = payload else {
            throw c.error(.typeMismatch, "payload must be an object, got \(payload.kindDescription)", at: .payload)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pushType, forKey: .pushType)
        try c.encode(priority, forKey: .priority)
        try c.encodeIfPresent(collapseID, forKey: .collapseID)
        try c.encode(payload, forKey: .payload)
    }
}
