import HeraldModel

/// One APNs provider-API request as it goes on the wire: host, path, headers and body,
/// built from a `PushRequest` and checked against `APNsRules` before it leaves.
public struct APNsRequest: Sendable, Hashable {
    /// The production host.
    public static let productionHost = "api.push.apple.com"
    /// The development (sandbox) host.
    public static let developmentHost = "api.sandbox.push.apple.com"

    /// The host the device's environment uses (production when the device says none).
    public var host: String
    /// `/3/device/<token>`.
    public var path: String
    /// The `apns-*` headers, lower-case names (authorization is the client's).
    public var headers: [String: String]
    /// The JSON payload.
    public var body: [UInt8]

    /// The host for `environment`: development → sandbox, otherwise production.
    public static func host(for environment: Device.Environment?) -> String {
        environment == .development ? developmentHost : productionHost
    }

    /// Builds the request: `apns-topic` the device's bundle ID (`.voip` appended for VoIP
    /// pushes), `apns-push-type`, `apns-priority` (5 for background pushes whatever the
    /// notification asked: Apple refuses 10 there), `apns-expiration`, `apns-collapse-id`
    /// when set, and `apns-id` the notification ID.
    /// - Throws: `PushError` with Apple's reason when the push breaks one of `APNsRules`
    ///   (no topic, an ID that is not a UUID, a payload too large, …).
    public init(_ request: PushRequest) throws(PushError) {
        let device = request.device
        guard let bundleID = device.topic, !bundleID.isEmpty else {
            throw PushError(status: 400, reason: "MissingTopic", detail: "device has no topic (the app's bundle ID)")
        }
        let apns = request.apns
        host = Self.host(for: device.environment)
        path = "/3/device/" + device.token
        headers = Self.headers(request, topic: apns.pushType == .voip ? bundleID + ".voip" : bundleID)
        // A payload decoded from a notification is already its bytes (`WireCodec`'s form):
        // sent as they are, checked without building a tree.
        let payload: JSONValue?
        if let encoded = apns.encodedPayload {
            (body, payload) = (encoded, nil)
        } else {
            payload = apns.payload
            body = try Self.encode(apns.payload)
        }
        if let refusal = APNsRules.refusal(method: "POST", path: path, headers: headers, body: body, payload: payload) {
            throw refusal
        }
    }

    /// The `apns-*` headers of `request` with `topic` as `apns-topic` (also FCM's
    /// `message.apns.headers`, without the topic, which FCM sets).
    static func headers(_ request: PushRequest, topic: String?) -> [String: String] {
        let apns = request.apns
        var headers = [
            "apns-push-type": apns.pushType.rawValue,
            "apns-priority": apns.pushType == .background ? "5" : String(apns.priority.rawValue),
            "apns-expiration": String(max(request.expiration, 0)),
            "apns-id": request.notificationID,
        ]
        if let topic { headers["apns-topic"] = topic }
        if let collapseID = apns.collapseID { headers["apns-collapse-id"] = collapseID }
        return headers
    }

    /// The payload as JSON bytes.
    static func encode(_ payload: JSONValue) throws(PushError) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        do {
            try writer.value(payload)
        } catch {
            throw PushError(status: 400, reason: "BadPayload", detail: "payload cannot be written as JSON: \(error)")
        }
        return writer.bytes
    }
}
