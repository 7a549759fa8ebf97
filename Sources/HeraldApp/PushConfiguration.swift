import HeraldPush
import HeraldStages

/// How the push stage reaches the providers: credentials files (never logged), or
/// transports injected by tests and benchmarks, and the stage's settings.
public struct PushConfiguration: Sendable {
    /// The APNs token-auth key (`AuthKey_XXXXXXXXXX.p8`), `--apns-key-file` / `$HERALD_APNS_KEY_FILE`.
    public var apnsKeyFile: String?
    /// The Apple developer team ID, `--apns-team-id` / `$HERALD_APNS_TEAM_ID`.
    public var apnsTeamID: String?
    /// The key's ID, `--apns-key-id` / `$HERALD_APNS_KEY_ID`.
    public var apnsKeyID: String?
    /// The FCM service-account JSON, `--fcm-service-account` / `$HERALD_FCM_SERVICE_ACCOUNT`.
    public var fcmServiceAccountFile: String?
    /// Transports to use instead of the provider clients (tests, benchmarks); `nil`: the
    /// clients built from the credentials.
    public var transports: PushTransports?
    /// The stage's settings (device cap, retries, pause). Default: `PushProcessor.Settings()`.
    public var settings = PushProcessor.Settings()

    public init() {}

    /// Whether all three APNs settings are given.
    public var hasAPNsCredentials: Bool { apnsKeyFile != nil && apnsTeamID != nil && apnsKeyID != nil }

    /// Whether the push stage can run: transports injected, or some provider's credentials.
    public var canPush: Bool { transports != nil || hasAPNsCredentials || fcmServiceAccountFile != nil }

    /// Checks the push stage can start: transports injected, or complete credentials of
    /// at least one provider.
    /// - Throws: `HeraldAppError` (`pushCredentials`) saying which flags are missing.
    func check() throws(HeraldAppError) {
        if transports != nil { return }
        let apns = [("--apns-key-file", apnsKeyFile), ("--apns-team-id", apnsTeamID), ("--apns-key-id", apnsKeyID)]
        let missing = apns.filter { $0.1 == nil }.map(\.0)
        if !missing.isEmpty, missing.count < apns.count {
            throw HeraldAppError(
                setting: .pushCredentials,
                reason: "APNs needs all of --apns-key-file, --apns-team-id and --apns-key-id; missing \(missing.joined(separator: ", "))")
        }
        guard canPush else {
            throw HeraldAppError(
                setting: .pushCredentials,
                reason: "the push stage needs provider credentials: --apns-key-file, --apns-team-id and --apns-key-id (or $HERALD_APNS_KEY_FILE, $HERALD_APNS_TEAM_ID, $HERALD_APNS_KEY_ID) for APNs, --fcm-service-account ($HERALD_FCM_SERVICE_ACCOUNT) for FCM")
        }
    }
}
