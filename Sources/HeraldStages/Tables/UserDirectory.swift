import Foundation
import HeraldKafka
import HeraldModel
import Synchronization

/// Every user's profile (locale, time zone) from the compacted `users` topic, on every
/// instance that composes or schedules.
public final class UserDirectory: Sendable {
    private let profiles = Mutex<[String: UserProfile]>([:])
    /// Users whose time zone changed since the last `takeTimeZoneChanges()`, when tracked.
    private let zoneChanges = Mutex<Set<String>>([])
    private let tracksTimeZones: Bool
    public let gate = ReadyGate()

    /// - Parameter tracksTimeZones: remember whose time zone changes (the schedule stage
    ///   recomputes their floating schedules); off for the compose stage.
    public init(tracksTimeZones: Bool = false) {
        self.tracksTimeZones = tracksTimeZones
    }

    /// The users whose time zone changed (or who were forgotten) since the last call.
    public func takeTimeZoneChanges() -> Set<String> {
        zoneChanges.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }

    private func store(_ profile: UserProfile?, for user: String) {
        let previous = profiles.withLock { profiles in
            defer { profiles[user] = profile }
            return profiles[user]
        }
        if tracksTimeZones, previous?.timeZone != profile?.timeZone {
            zoneChanges.withLock { _ = $0.insert(user) }
        }
    }

    public func profile(_ user: String) -> UserProfile? { profiles.withLock { $0[user] } }

    public var count: Int { profiles.withLock { $0.count } }

    /// Applies one record of the topic: a profile, or a tombstone (nil) forgetting the user.
    /// - Throws: `Rejection.Reason` for undecodable or mismatched records (nothing changes).
    public func apply(_ message: ConsumedMessage) throws(Rejection.Reason) {
        guard let value = message.value else {
            guard let key = message.keyString else { throw .invalid("a tombstone without a key") }
            store(nil, for: key)
            return
        }
        let profile: UserProfile
        do {
            profile = try WireCodec().decode(UserProfile.self, from: value)
        } catch {
            throw .undecodable("\(error)")
        }
        if let key = message.keyString, key != profile.partitionKey {
            throw .invalid("key '\(key)' is not the profile's user '\(profile.userRecordName)'")
        }
        store(profile, for: profile.userRecordName)
    }
}
