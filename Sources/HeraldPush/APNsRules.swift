import Foundation
import HeraldModel

/// Apple's rules for one provider-API request, checked without I/O: by `APNsRequest` before
/// sending (a push that breaks them is refused locally with Apple's reason) and by the
/// local stand-in on receipt. Sources: "Sending notification requests to APNs" and
/// "Handling notification responses from APNs" (developer.apple.com), and
/// docs/cloudkit-behaviour.md §5.
public enum APNsRules {
    /// The largest payload for every push type but VoIP, in bytes.
    public static let maxPayloadBytes = 4096
    /// The largest VoIP payload, in bytes.
    public static let maxVoIPPayloadBytes = 5120
    /// The shortest device token, in hex digits (tokens have been 64 and may grow).
    public static let minTokenDigits = 64

    /// The first rule `POST path` with `headers` (lower-case names) and `body` breaks, or
    /// `nil`. Authorization is not checked here (it needs the key; the stand-in does it).
    /// - Parameter payload: the body as a value when the caller has it (it wrote the body),
    ///   so the body is not parsed again.
    public static func refusal(
        method: String, path: String, headers: [String: String], body: [UInt8], payload: JSONValue? = nil
    ) -> PushError? {
        guard method == "POST" else {
            return PushError(status: 405, reason: "MethodNotAllowed", detail: "method \(method), only POST")
        }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else {
            return PushError(status: 404, reason: "BadPath", detail: "path \(path) is not /3/device/<token>")
        }
        let token = path.dropFirst(prefix.count)
        if token.isEmpty {
            return PushError(status: 400, reason: "MissingDeviceToken", detail: "no token after /3/device/")
        }
        if !isDeviceToken(token) {
            return PushError(status: 400, reason: "BadDeviceToken", detail: "token is not \(minTokenDigits)+ hex digits")
        }
        return headerRefusal(headers) ?? payloadRefusal(headers: headers, body: body, payload: payload)
    }

    /// Whether `token` is an APNs device token: an even number, at least 64, of hex digits.
    public static func isDeviceToken(_ token: Substring) -> Bool {
        token.utf8.count >= minTokenDigits && token.utf8.count % 2 == 0 && token.utf8.allSatisfy(\.isHexDigit)
    }

    /// The header rules: topic, push type, priority, ID, collapse ID, expiration.
    static func headerRefusal(_ headers: [String: String]) -> PushError? {
        guard let topic = headers["apns-topic"], !topic.isEmpty else {
            return PushError(status: 400, reason: "MissingTopic", detail: "apns-topic is required with token auth")
        }
        let pushType = headers["apns-push-type"] ?? "alert"
        guard let type = APNsPush.PushType(rawValue: pushType) else {
            return PushError(status: 400, reason: "InvalidPushType", detail: "apns-push-type \(pushType)")
        }
        if (type == .voip) != topic.hasSuffix(".voip") {
            return PushError(status: 400, reason: "BadTopic", detail: "voip pushes, and only they, go to <bundle ID>.voip")
        }
        if let priority = headers["apns-priority"] {
            guard ["1", "5", "10"].contains(priority) else {
                return PushError(status: 400, reason: "BadPriority", detail: "apns-priority \(priority), not 1, 5 or 10")
            }
            if type == .background && priority == "10" {
                return PushError(status: 400, reason: "BadPriority", detail: "background pushes must use priority 5 or 1")
            }
        } else if type == .background {
            return PushError(status: 400, reason: "BadPriority", detail: "background pushes need apns-priority 5")
        }
        if let id = headers["apns-id"], !isCanonicalUUID(id) {
            return PushError(status: 400, reason: "BadMessageId", detail: "apns-id \(id) is not a canonical UUID")
        }
        if let collapse = headers["apns-collapse-id"], collapse.utf8.count > APNsPush.maxCollapseIDBytes {
            return PushError(
                status: 400, reason: "BadCollapseId",
                detail: "apns-collapse-id is \(collapse.utf8.count) bytes, at most \(APNsPush.maxCollapseIDBytes)")
        }
        if let expiration = headers["apns-expiration"], Int64(expiration).map({ $0 < 0 }) ?? true {
            return PushError(status: 400, reason: "BadExpirationDate", detail: "apns-expiration \(expiration)")
        }
        return nil
    }

    /// The payload rules: present, within size, a JSON object with `aps`, and a background
    /// push carries `content-available: 1` and no alert, sound or badge.
    static func payloadRefusal(headers: [String: String], body: [UInt8], payload given: JSONValue?) -> PushError? {
        let type = headers["apns-push-type"].flatMap(APNsPush.PushType.init(rawValue:)) ?? .alert
        let limit = type == .voip ? maxVoIPPayloadBytes : maxPayloadBytes
        if body.isEmpty {
            return PushError(status: 400, reason: "PayloadEmpty", detail: "no payload")
        }
        if body.count > limit {
            return PushError(status: 413, reason: "PayloadTooLarge", detail: "payload is \(body.count) bytes, at most \(limit)")
        }
        if given == nil, let shape = CanonicalPayload(body) {
            return shape.refusal(background: type == .background)
        }
        guard let payload = given ?? (try? JSONValue(parsing: Data(body))),
            let aps = payload["aps"]?.objectValue
        else {
            return Self.notAnAPSObject
        }
        if type == .background {
            guard aps["content-available"] == .integer(1) else { return Self.noContentAvailable }
            if aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil { return Self.backgroundWithAlert }
        }
        return nil
    }

    static let notAnAPSObject = PushError(
        status: 400, reason: "BadPayload", detail: "payload is not a JSON object with an aps dictionary")
    static let noContentAvailable = PushError(
        status: 400, reason: "BadPayload", detail: "background pushes need aps.content-available = 1")
    static let backgroundWithAlert = PushError(
        status: 400, reason: "BadPayload", detail: "background pushes carry no alert, sound or badge")

    /// Whether `text` is 8-4-4-4-12 hex digits (what `apns-id` must be).
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !byte.isHexDigit {
                return false
            }
        }
        return true
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hex digit.
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
