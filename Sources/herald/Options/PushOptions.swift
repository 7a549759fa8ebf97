import ArgumentParser
import Foundation
import HeraldApp
import HeraldStages

/// The push stage's provider credentials and endpoints: flags, else the environment (the
/// variables `APNsCredentials` and `FCMCredentials` read). Only paths, IDs and URLs are
/// read here; keys are never logged.
struct PushOptions: ParsableArguments {
    @Option(help: ArgumentHelp("APNs token-auth key (.p8). Default: $HERALD_APNS_KEY_FILE, or the PEM in $HERALD_APNS_KEY.", valueName: "file"))
    var apnsKeyFile: String?

    @Option(help: ArgumentHelp("Apple developer team ID of the APNs key. Default: $HERALD_APNS_TEAM_ID.", valueName: "id"))
    var apnsTeamID: String?

    @Option(help: ArgumentHelp("ID of the APNs key. Default: $HERALD_APNS_KEY_ID.", valueName: "id"))
    var apnsKeyID: String?

    @Option(help: ArgumentHelp(
        "FCM service-account JSON file. Default: $HERALD_FCM_SERVICE_ACCOUNT_FILE, or the JSON in $HERALD_FCM_SERVICE_ACCOUNT.",
        valueName: "file"))
    var fcmServiceAccountFile: String?

    @Option(help: ArgumentHelp("APNs production URL (a stand-in, a proxy). Default: https://api.push.apple.com.", valueName: "url"))
    var apnsProductionURL: String?

    @Option(help: ArgumentHelp("APNs development URL. Default: https://api.sandbox.push.apple.com.", valueName: "url"))
    var apnsDevelopmentURL: String?

    @Option(help: ArgumentHelp("FCM URL. Default: https://fcm.googleapis.com.", valueName: "url"))
    var fcmURL: String?

    @Option(help: ArgumentHelp("OAuth2 token URL for FCM. Default: the service account's token_uri.", valueName: "url"))
    var fcmTokenURL: String?

    @Option(help: ArgumentHelp("PEM file of CAs the provider connections trust besides the system's.", valueName: "file"))
    var pushCAFile: String?

    @Option(help: ArgumentHelp("Most devices one user keeps; registering more drops the oldest.", valueName: "count"))
    var maxDevicesPerUser = 20

    @Option(help: ArgumentHelp(
        "Most notifications the push stage takes per batch; a crash (kill -9) can repeat the pushes of up to 4 batches.",
        valueName: "count"))
    var pushBatchSize = PushProcessor.Settings().maxBatchSize

    @Option(help: ArgumentHelp("Pushes the push stage has in flight at once.", valueName: "count"))
    var pushConcurrency = PushProcessor.Settings().maxConcurrentSends

    @Option(help: ArgumentHelp(
        "Members of the push stage's consumer group in this process (each its own partitions and batches).",
        valueName: "count"))
    var pushWorkers = PushProcessor.Settings().workers

    private static func value(_ flag: String?, _ variable: String?) -> String? {
        if let flag, !flag.isEmpty { return flag }
        if let variable, let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty { return value }
        return nil
    }

    func validate() throws {
        guard maxDevicesPerUser >= 1 else { throw ValidationError("--max-devices-per-user must be at least 1") }
        guard (1...10_000).contains(pushBatchSize) else { throw ValidationError("--push-batch-size must be 1…10000, not \(pushBatchSize)") }
        guard (1...64).contains(pushWorkers) else { throw ValidationError("--push-workers must be 1…64, not \(pushWorkers)") }
        guard (1...10_000).contains(pushConcurrency) else { throw ValidationError("--push-concurrency must be 1…10000, not \(pushConcurrency)") }
        for (flag, url) in [
            ("--apns-production-url", apnsProductionURL), ("--apns-development-url", apnsDevelopmentURL),
            ("--fcm-url", fcmURL), ("--fcm-token-url", fcmTokenURL),
        ] {
            if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                throw ValidationError("\(flag) must be an http(s) URL, not '\(url)'")
            }
        }
    }

    /// The push configuration from the flags and environment.
    var configuration: PushConfiguration {
        var push = PushConfiguration()
        push.apnsKeyFile = Self.value(apnsKeyFile, "HERALD_APNS_KEY_FILE")
        push.apnsKey = push.apnsKeyFile == nil ? Self.value(nil, "HERALD_APNS_KEY") : nil
        push.apnsTeamID = Self.value(apnsTeamID, "HERALD_APNS_TEAM_ID")
        push.apnsKeyID = Self.value(apnsKeyID, "HERALD_APNS_KEY_ID")
        push.fcmServiceAccountFile = Self.value(fcmServiceAccountFile, "HERALD_FCM_SERVICE_ACCOUNT_FILE")
        push.fcmServiceAccount = push.fcmServiceAccountFile == nil ? Self.value(nil, "HERALD_FCM_SERVICE_ACCOUNT") : nil
        push.apnsProductionURL = apnsProductionURL
        push.apnsDevelopmentURL = apnsDevelopmentURL
        push.fcmURL = fcmURL
        push.fcmTokenURL = fcmTokenURL
        push.caFile = pushCAFile
        push.settings.rules.maxDevicesPerUser = maxDevicesPerUser
        push.settings.maxBatchSize = pushBatchSize
        push.settings.maxConcurrentSends = pushConcurrency
        push.settings.workers = pushWorkers
        return push
    }
}
