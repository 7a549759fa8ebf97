import Synchronization

/// Apps whose pushes are paused because their provider refused Herald's credentials (403),
/// each with why and until when; every paused app is a readiness condition
/// `push.app.<app>` that is not ready, so `/health/ready` says why. In memory only: after a
/// restart the next push tries again (and pauses again if the credentials are still bad).
final class PushPauses: Sendable {
    private struct Pause {
        var until: Int64
        var reason: String
    }

    private let paused = Mutex<[String: Pause]>([:])
    private let readiness: Readiness?

    init(readiness: Readiness?) { self.readiness = readiness }

    static func condition(_ app: String) -> String { "push.app.\(app)" }

    /// Until when the app is paused at `now`; `nil` when it is not.
    func pausedUntil(_ app: String, now: Int64) -> Int64? {
        paused.withLock { paused in
            guard let pause = paused[app], pause.until > now else { return nil }
            return pause.until
        }
    }

    /// Pauses the app until `until`.
    func pause(_ app: String, until: Int64, reason: String) {
        paused.withLock { $0[app] = Pause(until: until, reason: reason) }
        readiness?.set(
            Self.condition(app), ready: false,
            reason: "pushes of \(app) are paused: the provider refused the credentials (\(reason))")
    }

    /// The provider accepted a push of the app: it is no longer paused.
    func resume(_ app: String) {
        let wasPaused = paused.withLock { $0.removeValue(forKey: app) != nil }
        if wasPaused { readiness?.set(Self.condition(app), ready: true) }
    }
}
