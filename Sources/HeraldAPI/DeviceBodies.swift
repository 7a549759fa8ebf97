import HeraldModel

/// The body of `PUT devices/{deviceToken}`.
struct DeviceRegistration: Decodable, Sendable {
    var platform: Device.Platform
    var environment: Device.Environment?
    var topic: String?
    var appID: String?
    var locale: String?
}

/// The answer of `PUT devices/{deviceToken}`: the device as stored and the tokens dropped
/// to stay within the per-user cap.
struct SavedDevice: Encodable, Sendable {
    var device: Device
    var dropped: [String]
}

/// The answer of `GET devices`.
struct DeviceList: Encodable, Sendable {
    var devices: [Device]
}

/// The answer of `DELETE devices/{deviceToken}`.
struct DeletedDevice: Encodable, Sendable {
    var token: String
    var deleted: Bool
}
