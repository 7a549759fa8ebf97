import HeraldPush
import HeraldStages

/// How the push stage reaches the providers: credentials (files or their text; never
/// logged) and endpoints, or transports injected by tests and benchmarks, and the stage's
/// settings. The flags and variables are the ones `APNsCredentials` and `FCMCredentials`
/// read (README, Push providers).
public struct PushConfiguration: Sendable {
    /// The APNs token-auth key file (`AuthKey_XXXXXXXXXX.p8`), `--apns-key-file` / `$HERALD_APNS_KEY_FILE`.
    public var apnsKeyFile: String?
    /// The APNs key's PEM text instead of a file, `$HERALD_APNS_KEY`.
    public var apnsKey: String?
    /// The Apple developer team ID, `--apns-team-id` / `$HERALD_APNS_TEAM_ID`.
    public var apnsTeamID: String?
    /// The key's ID, `--apns-key-id` / `$HERALD_APNS_KEY_ID`.
    public var apnsKeyID: String?
    /// The FCM service-account JSON file, `--fcm-service-account-file` / `$HERALD_FCM_SERVICE_ACCOUNT_FILE`.
    public var fcmServiceAccountFile: String?
    /// The service account's JSON text instead of a file, `$HERALD_FCM_SERVICE_ACCOUNT`.
    public var fcmServiceAccount: String?
    /// Where the providers are (`nil`: Apple's and Google's hosts); `--apns-production-url`,
    /// `--apns-development-url`, `--fcm-url`, `--fcm-token-url`.
    public var apnsProductionURL: String?
    public var apnsDevelopmentURL: String?
    public var fcmURL: String?
    public var fcmTokenURL: String?
    /// A PEM file of CAs trusted besides the system's (the stand-in, corporate proxies), `--push-ca-file`.
    public var caFile: String?
    /// Transports to use instead of the provider clients (tests, benchmarks); `nil`: the
    /// clients built from the credentials.
    public var transports: PushTransports?
    /// The stage's settings (device cap, retries, pause). Default: `PushProcessor.Settings()`.
    public var settings = PushProcessor.Settings()

    public init() {}

    /// Whether some APNs setting is given.
    var hasAPNsSettings: Bool { apnsKeyFile != nil || apnsKey != nil || apnsTeamID != nil || apnsKeyID != nil }

    /// Whether an FCM service account is given.
    var hasFCMSettings: Bool { fcmServiceAccountFile != nil || fcmServiceAccount != nil }

    /// Whether the push stage can run: transports injected, or some provider's credentials.
    public var canPush: Bool { transports != nil || hasAPNsSettings || hasFCMSettings }

    /// Checks the push stage can start: transports injected, or complete and readable
    /// credentials of at least one provider.
    /// - Throws: `HeraldAppError` (`pushCredentials`) saying which flags are missing.
    func check() throws(HeraldAppError) {
        if transports != nil { return }
        if hasAPNsSettings {
            var missing: [String] = []
            if apnsKeyFile == nil && apnsKey == nil { missing.append("--apns-key-file") }
            if apnsTeamID == nil { missing.append("--apns-team-id") }
            if apnsKeyID == nil { missing.append("--apns-key-id") }
            if !missing.isEmpty {
                throw HeraldAppError(
                    setting: .pushCredentials,
                    reason: "APNs needs --apns-key-file (or $HERALD_APNS_KEY), --apns-team-id and --apns-key-id; missing \(missing.joined(separator: ", "))")
            }
        }
        guard canPush else {
            throw HeraldAppError(
                setting: .pushCredentials,
                reason: "the push stage needs provider credentials: --apns-key-file, --apns-team-id and --apns-key-id (or $HERALD_APNS_KEY_FILE or $HERALD_APNS_KEY, $HERALD_APNS_TEAM_ID, $HERALD_APNS_KEY_ID) for APNs, --fcm-service-account-file ($HERALD_FCM_SERVICE_ACCOUNT_FILE, or the JSON in $HERALD_FCM_SERVICE_ACCOUNT) for FCM")
        }
        _ = try PushClients.credentials(self)
    }
}
