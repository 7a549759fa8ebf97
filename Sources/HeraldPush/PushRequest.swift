import HeraldModel

/// One push of one notification to one device: what a `PushTransport` sends.
public struct PushRequest: Sendable, Hashable {
    /// The device to reach.
    public var device: Device
    /// The notification's ID: `apns-id` for APNs, the message's ID for FCM.
    public var notificationID: String
    /// Headers and payload as composed (`apns` of the notification).
    public var apns: APNsPush
    /// `apns-expiration`: seconds since 1970 after which the provider may drop the push;
    /// 0 means try once.
    public var expiration: Int64

    /// Creates a request.
    public init(device: Device, notificationID: String, apns: APNsPush, expiration: Int64) {
        self.device = device
        self.notificationID = notificationID
        self.apns = apns
        self.expiration = expiration
    }
}
