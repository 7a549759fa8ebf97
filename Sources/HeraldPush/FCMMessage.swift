import HeraldModel

/// One FCM HTTP v1 `messages:send` body built from a `PushRequest`.
///
/// An FCM device with a `topic` (its app's bundle ID) is an iOS app reached through FCM:
/// the notification goes as `message.apns` with the same headers and payload APNs would
/// get. Without a topic it is an Android app: the alert goes as `message.notification`
/// (title, body), the IDs and CloudKit's `ck` dictionary as `message.data` (string values,
/// as FCM requires; `ck` as JSON text), priority, TTL and collapse key as `message.android`.
/// A background push goes as a data-only message.
public enum FCMMessage {
    /// `/v1/projects/<project>/messages:send`.
    public static func path(project: String) -> String {
        "/v1/projects/\(project)/messages:send"
    }

    /// The JSON body for `request`.
    /// - Parameter nowSeconds: the current time in seconds since 1970, to turn the absolute
    ///   `apns-expiration` into Android's relative TTL.
    /// - Throws: `PushError` when the payload cannot be written.
    public static func body(for request: PushRequest, nowSeconds: Int64) throws(PushError) -> [UInt8] {
        var message: [String: JSONValue] = ["token": .string(request.device.token)]
        if request.device.topic != nil {
            let headers = APNsRequest.headers(request, topic: nil)
            message["apns"] = .object(["headers": .object(headers.mapValues(JSONValue.string)), "payload": request.apns.payload])
            message["data"] = .object(["nid": .string(request.notificationID)])
        } else {
            android(request, nowSeconds: nowSeconds, into: &message)
        }
        return try APNsRequest.encode(.object(["message": .object(message)]))
    }

    /// The Android members: `data`, `notification` (unless background) and `android`.
    private static func android(_ request: PushRequest, nowSeconds: Int64, into message: inout [String: JSONValue]) {
        let payload = request.apns.payload
        var data: [String: JSONValue] = ["nid": .string(request.notificationID)]
        if let ck = payload["ck"], let text = try? APNsRequest.encode(ck) {
            data["ck"] = .string(String(decoding: text, as: UTF8.self))
        }
        message["data"] = .object(data)
        if request.apns.pushType != .background, let notification = notification(payload["aps"]?["alert"]) {
            message["notification"] = .object(notification)
        }
        var android: [String: JSONValue] = [
            "priority": .string(request.apns.priority == .immediate && request.apns.pushType != .background ? "HIGH" : "NORMAL"),
            "ttl": .string("\(request.expiration > 0 ? max(request.expiration - nowSeconds, 0) : 0)s"),
        ]
        if let collapseID = request.apns.collapseID { android["collapse_key"] = .string(collapseID) }
        message["android"] = .object(android)
    }

    /// FCM's `notification` from an APNs `alert`: a string is the body; a dictionary gives
    /// title and body (localized text stays on the device, so only plain text is carried).
    private static func notification(_ alert: JSONValue?) -> [String: JSONValue]? {
        switch alert {
        case .string(let body):
            return ["body": .string(body)]
        case .object(let members):
            var out: [String: JSONValue] = [:]
            if let title = members["title"]?.stringValue { out["title"] = .string(title) }
            if let body = members["body"]?.stringValue { out["body"] = .string(body) }
            return out.isEmpty ? nil : out
        default:
            return nil
        }
    }
}
