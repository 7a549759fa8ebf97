import HeraldModel
import HeraldPush

/// The provider transport of each platform, injected into the push stage: the APNs and
/// FCM clients in production (HeraldPushClient), in-memory doubles in tests.
public struct PushTransports: Sendable {
    public var apns: any PushTransport
    public var fcm: any PushTransport

    public init(apns: any PushTransport, fcm: any PushTransport) {
        self.apns = apns
        self.fcm = fcm
    }

    /// One transport for both platforms (a test double).
    public init(_ both: any PushTransport) {
        self.init(apns: both, fcm: both)
    }

    /// The transport of a device's platform.
    public func transport(for platform: Device.Platform) -> any PushTransport {
        switch platform {
        case .apns: apns
        case .fcm: fcm
        }
    }
}
