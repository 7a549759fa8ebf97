/// A device registered to receive a user's pushes — topic `devices` (compacted), placed with
/// its owner's notifications (docs/ARCHITECTURE.md §5). `registeredAt` orders a provider's
/// "gone" report against a later re-registration: a token is removed only when the provider
/// saw it invalid after it was registered.
public struct Device: Sendable, Hashable, Codable {
    /// The push service the token belongs to.
    public enum Platform: String, WireEnum {
        case apns, fcm
        public static var wireName: String { "platform" }
    }

    /// The APNs environment the app was built for (development → sandbox host).
    public enum Environment: String, WireEnum {
        case development, production
        public static var wireName: String { "environment" }
    }

    /// The provider's device token (APNs: hex; FCM: a registration token).
    public var token: String
    /// The owner's user record name.
    public var user: String
    /// The container the device registered in.
    public var container: String
    public var platform: Platform
    /// APNs only: which host the token is valid on.
    public var environment: Environment?
    /// APNs only: the app's bundle ID (`apns-topic`).
    public var topic: String?
    /// The app's own ID (FCM project app, or any label the app chooses).
    public var appID: String?
    /// The device's locale, when it differs from the user's.
    public var locale: String?
    /// When the device was (last) registered, in milliseconds since 1970.
    public var registeredAt: Int64

    /// Creates a device.
    public init(
        token: String, user: String, container: String, platform: Platform, environment: Environment? = nil,
        topic: String? = nil, appID: String? = nil, locale: String? = nil, registeredAt: Int64
    ) {
        self.token = token
        self.user = user
        self.container = container
        self.platform = platform
        self.environment = environment
        self.topic = topic
        self.appID = appID
        self.locale = locale
        self.registeredAt = registeredAt
    }
}
