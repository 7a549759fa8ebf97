import Foundation
import HeraldKafka
import HeraldModel
import Synchronization

/// Every user's profile (locale, time zone) from the compacted `users` topic, on every
/// instance that composes or schedules.
public final class UserDirectory: Sendable {
    private let profiles = Mutex<[String: UserProfile]>([:])
    public let gate = ReadyGate()

    public init() {}

    public func profile(_ user: String) -> UserProfile? { profiles.withLock { $0[user] } }

    public var count: Int { profiles.withLock { $0.count } }

    /// Applies one record of the topic: a profile, or a tombstone (nil) forgetting the user.
    /// - Throws: `Rejection.Reason` for undecodable or mismatched records (nothing changes).
    public func apply(_ message: ConsumedMessage) throws(Rejection.Reason) {
        guard let value = message.value else {
            guard let key = message.keyString else { throw .invalid("a tombstone without a key") }
            profiles.withLock { $0[key] = nil }
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
        profiles.withLock { $0[profile.userRecordName] = profile }
    }
}
