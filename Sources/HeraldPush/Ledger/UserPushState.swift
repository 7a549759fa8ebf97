import HeraldModel

/// What the push stage keeps per user (changelog `push-state`, on the user's partition):
/// their devices, and per device the last notification handed to its provider, plus the
/// pushes waiting for a retry.
///
/// Never twice: a notification at offset `o` goes to device `d` only when `o` is past
/// `sent[d]` and no pending push holds it; `sent[d]` moves to `o` as soon as the push is
/// settled (accepted, dead-lettered, or moved to `pending`). A retry succeeding later
/// leaves `sent` alone, so a newer push already sent is not repeated either.
public struct UserPushState: Sendable, Hashable, Codable {
    public var user: String
    /// The user's devices by `userKey` (`container/token`).
    public var devices: [String: Device] = [:]
    /// Per device (`userKey`): the offset of the last `notifications` record settled for it.
    public var sent: [String: Int64] = [:]
    /// Pushes waiting for their next attempt, oldest first.
    public var pending: [PendingPush] = []
    /// The user's notifications handled (pushed, settled, or needing no push), by sequence:
    /// a copy appended again (compose redoing a batch after a crash) is not pushed again.
    public var handled = HandledSequences()
    /// The IDs of the user's latest notifications read (at most `rememberedIDs`): a read
    /// may arrive before the notification it names, which is then not pushed. (States
    /// written before `handled` existed also hold the IDs of pushed notifications here.)
    public var recent: [String] = []
    /// The offset of the last `devices` record applied (all of a user's are on one
    /// partition): a record replayed after a restart (a registration since pruned) is
    /// recognized and skipped.
    public var appliedDevices: Int64 = -1

    /// How many notification IDs `recent` keeps.
    public static let rememberedIDs = 64

    public init(user: String) { self.user = user }

    private enum CodingKeys: String, CodingKey {
        case user, devices, sent, pending, handled, recent, appliedDevices
    }

    /// Decodes a state; one written before `handled` existed has none (its `recent` IDs
    /// still keep copies of its pushed notifications from being pushed again).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        user = try container.decode(String.self, forKey: .user)
        devices = try container.decode([String: Device].self, forKey: .devices)
        sent = try container.decode([String: Int64].self, forKey: .sent)
        pending = try container.decode([PendingPush].self, forKey: .pending)
        handled = try container.decodeIfPresent(HandledSequences.self, forKey: .handled) ?? HandledSequences()
        recent = try container.decode([String].self, forKey: .recent)
        appliedDevices = try container.decode(Int64.self, forKey: .appliedDevices)
    }

    /// Whether the user has nothing worth keeping (the changelog gets a tombstone).
    public var isEmpty: Bool { devices.isEmpty && pending.isEmpty }

    /// The earliest instant a pending push is due, if any.
    public var nextDue: Int64? { pending.map(\.due).min() }

    /// Adds or replaces a device; past `maxDevices`, the oldest registrations (by
    /// `registeredAt`, then key) are dropped. Returns the devices dropped.
    public mutating func register(_ device: Device, maxDevices: Int) -> [Device] {
        devices[device.userKey] = device
        guard devices.count > maxDevices else { return [] }
        let oldest = devices.values.sorted { ($0.registeredAt, $0.userKey) < ($1.registeredAt, $1.userKey) }
        let dropped = Array(oldest.prefix(devices.count - maxDevices))
        for device in dropped { remove(device.userKey) }
        return dropped
    }

    /// Forgets a device, its sent record and its pending pushes.
    public mutating func remove(_ userKey: String) {
        devices[userKey] = nil
        sent[userKey] = nil
        pending.removeAll { $0.deviceKey == userKey }
    }

    /// The devices a notification at `offset` still has to go to: those of its container,
    /// except the one that made the change, not yet settled for it. `readNotification`
    /// entries, notifications without a push, copies of one handled and read ones go nowhere.
    public func targets(of notification: HeraldNotification, offset: Int64) -> [Device] {
        guard notification.notificationType != .readNotification, notification.apns != nil,
            !handled.contains(notification.sequence), !recent.contains(notification.notificationID)
        else { return [] }
        return devices.values
            .filter { device in
                device.container == notification.containerIdentifier && device.token != notification.excludedDevice
                    && (sent[device.userKey] ?? -1) < offset
                    && !pending.contains { $0.deviceKey == device.userKey && $0.notificationID == notification.notificationID }
            }
            .sorted { $0.userKey < $1.userKey }
    }

    /// Remembers a notification as read.
    public mutating func remember(_ notificationID: String) {
        guard !recent.contains(notificationID) else { return }
        recent.append(notificationID)
        if recent.count > Self.rememberedIDs { recent.removeFirst(recent.count - Self.rememberedIDs) }
    }

    /// Records that the push of the notification at `offset` to a device is settled.
    public mutating func settle(_ userKey: String, offset: Int64) {
        guard devices[userKey] != nil else { return }
        sent[userKey] = max(sent[userKey] ?? -1, offset)
    }

    /// Removes and returns the pending pushes due at `now`.
    public mutating func takeDue(now: Int64) -> [PendingPush] {
        let due = pending.filter { $0.due <= now }
        pending.removeAll { $0.due <= now }
        return due
    }
}
