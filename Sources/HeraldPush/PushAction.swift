import HeraldModel

/// What the push stage does with a provider's answer (docs/ARCHITECTURE.md, push stage).
public enum PushAction: Sendable, Hashable {
    /// Delivered to the provider: record it as sent to this device.
    case sent
    /// Try again later; `afterSeconds` when the provider said when (`Retry-After`).
    case retry(afterSeconds: Int?)
    /// The token is gone or wrong: remove the device (only if `observedAt`, the provider's
    /// timestamp when given, is after the device's registration).
    case removeDevice(reason: String, observedAt: Int64?)
    /// The provider refused Herald's credentials (403): pause this app's pushes, say why in
    /// `/health/ready`.
    case pauseApp(reason: String)
    /// A permanent failure for this one push: dead-letter it with the provider's reason.
    case deadLetter(reason: String)
}
