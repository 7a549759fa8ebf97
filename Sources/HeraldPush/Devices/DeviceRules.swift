import Foundation
import HeraldModel

/// The registry's rules for a device: its token's shape per platform, the fields each
/// platform needs, and how many devices one user may have.
///
/// - APNs tokens are hexadecimal, an even number of 64 to 200 digits (32 bytes today; Apple
///   says they may grow up to 100 bytes). They are case-insensitive and kept lower-case.
/// - FCM registration tokens are opaque; in practice `<instance ID>:APA91b…` of about 150 to
///   180 characters from the base64url alphabet plus `:`. Firebase promises no length, so
///   the rule is that alphabet and 64 to 4096 characters.
/// - APNs devices need `environment` and `topic` (the bundle ID, the `apns-topic` header).
public struct DeviceRules: Sendable, Hashable {
    /// The most devices one user keeps; registering one more drops the oldest. Default: 20.
    public var maxDevicesPerUser = 20
    /// The longest `topic`, `appID`, `container` and `user`. Default: 255 bytes.
    public var maxFieldBytes = 255

    public init() {}

    public init(maxDevicesPerUser: Int) {
        self.maxDevicesPerUser = max(1, maxDevicesPerUser)
    }

    /// The token in its canonical form (APNs lower-case).
    /// - Throws: `PushError.invalidToken` naming what is wrong.
    public func canonicalToken(_ token: String, platform: Device.Platform) throws(PushError) -> String {
        switch platform {
        case .apns:
            let utf8 = token.utf8
            guard utf8.allSatisfy(Self.isHexDigit) else {
                throw PushError(.invalidToken, field: "token", "an APNs device token is hexadecimal digits only")
            }
            guard utf8.count >= 64, utf8.count <= 200, utf8.count % 2 == 0 else {
                throw PushError(
                    .invalidToken, field: "token",
                    "an APNs device token has an even number of 64 to 200 hex digits, not \(utf8.count)")
            }
            return token.lowercased()
        case .fcm:
            let utf8 = token.utf8
            guard utf8.count >= 64, utf8.count <= 4096 else {
                throw PushError(
                    .invalidToken, field: "token", "an FCM registration token has 64 to 4096 characters, not \(utf8.count)")
            }
            guard utf8.allSatisfy(Self.isFCMTokenByte) else {
                throw PushError(
                    .invalidToken, field: "token", "an FCM registration token has only letters, digits, '-', '_' and ':'")
            }
            return token
        }
    }

    /// The device with its token canonical, once every field is checked.
    /// - Throws: `PushError` naming the first field at fault.
    public func validated(_ device: Device) throws(PushError) -> Device {
        var device = device
        device.token = try canonicalToken(device.token, platform: device.platform)
        try checkName(device.user, field: "user")
        try checkName(device.container, field: "container")
        if device.platform == .apns {
            guard device.environment != nil else {
                throw PushError(.invalidField, field: "environment", "an APNs device needs 'development' or 'production'")
            }
            guard let topic = device.topic else {
                throw PushError(.invalidField, field: "topic", "an APNs device needs its app's bundle ID (apns-topic)")
            }
            try checkName(topic, field: "topic")
        } else if let topic = device.topic {
            try checkName(topic, field: "topic")
        }
        if let appID = device.appID { try checkName(appID, field: "appID") }
        if let locale = device.locale {
            guard !locale.isEmpty, locale.utf8.count <= 35,
                locale.utf8.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
            else {
                throw PushError(.invalidField, field: "locale", "'\(locale)' is not a locale identifier like en-US")
            }
        }
        guard device.registeredAt >= 0 else {
            throw PushError(.invalidField, field: "registeredAt", "must be milliseconds since 1970, not \(device.registeredAt)")
        }
        return device
    }

    /// A `devices` record decoded and validated.
    /// - Throws: `PushError` (`undecodable`, or the field at fault).
    public func decode(_ data: Data) throws(PushError) -> Device {
        let device: Device
        do { device = try WireCodec().decode(Device.self, from: data) } catch {
            throw PushError(.undecodable, field: nil, "\(error)")
        }
        return try validated(device)
    }

    private func checkName(_ value: String, field: String) throws(PushError) {
        guard !value.isEmpty else { throw PushError(.invalidField, field: field, "must not be empty") }
        guard value.utf8.count <= maxFieldBytes else {
            throw PushError(.invalidField, field: field, "is longer than \(maxFieldBytes) bytes")
        }
        guard !value.contains("/") || field == "topic" else {
            throw PushError(.invalidField, field: field, "must not contain '/' (it is part of the record key)")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isFCMTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }
}
