import HeraldModel

extension Device {
    /// The record key in `devices`: `container/user/token`. One record per device, so two
    /// API instances registering two devices of one user at once never overwrite each other;
    /// the record is placed on the user's partition (murmur2 of the user), with their
    /// notifications.
    public var registryKey: String { "\(container)/\(user)/\(token)" }

    /// The device's key among its user's devices: `container/token`.
    public var userKey: String { "\(container)/\(token)" }

    /// The app whose pushes a provider's credentials cover: the platform and the bundle ID
    /// (APNs) or app ID (FCM). A 403 pauses this app's pushes only.
    public var pushApp: String { "\(platform.rawValue):\(topic ?? appID ?? container)" }

    /// The parts of a `devices` key, `container/user/token`; `nil` when it has another shape.
    public static func registryKeyParts(_ key: String) -> (container: String, user: String, token: String)? {
        let parts = key.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (String(parts[0]), String(parts[1]), String(parts[2]))
    }
}
