import HeraldModel

/// A push that failed transiently (or whose app is paused) and waits for its next attempt;
/// kept in its user's `UserPushState`, so a restart or rebalance retries it instead of
/// losing it.
public struct PendingPush: Sendable, Hashable, Codable {
    /// The device's `userKey` (`container/token`).
    public var deviceKey: String
    public var notificationID: String
    /// The notification's offset in its `notifications` partition.
    public var offset: Int64
    public var apns: APNsPush
    public var expiration: Int64
    /// When the notification was composed (latency to the provider's acknowledgement).
    public var createdAt: Int64
    /// Attempts so far that the provider did not accept.
    public var attempts: Int
    /// When to try again, milliseconds since 1970.
    public var due: Int64
    /// The last failure, for the dead letter when retries run out.
    public var lastReason: String

    public init(
        deviceKey: String, notificationID: String, offset: Int64, apns: APNsPush, expiration: Int64, createdAt: Int64,
        attempts: Int, due: Int64, lastReason: String
    ) {
        self.deviceKey = deviceKey
        self.notificationID = notificationID
        self.offset = offset
        self.apns = apns
        self.expiration = expiration
        self.createdAt = createdAt
        self.attempts = attempts
        self.due = due
        self.lastReason = lastReason
    }
}
