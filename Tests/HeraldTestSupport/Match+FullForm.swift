import Foundation
import HeraldModel

extension Match {
    /// The full form match stages before `Match.slimForm` wrote (the whole subscription and
    /// change, no `form`), as Foundation encodes it: what a compose stage must still read
    /// during a rolling upgrade.
    public func fullFormJSON() throws -> Data {
        let codec = WireCodec()
        var object: [String: JSONValue] = [
            "recipient": .string(recipient),
            "notificationType": .string(notificationType.rawValue),
            "notificationID": .string(notificationID),
            "subscription": try codec.decode(JSONValue.self, from: codec.encodeWithFoundation(subscription)),
            "change": try codec.decode(JSONValue.self, from: codec.encodeWithFoundation(change)),
        ]
        if let queryNotificationReason { object["queryNotificationReason"] = .string(queryNotificationReason.rawValue) }
        return try codec.encodeWithFoundation(JSONValue.object(object))
    }
}
