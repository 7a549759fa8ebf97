import ArgumentParser
import Foundation
import HeraldApp

/// The push stage's provider credentials: flags, else the environment. Only file paths and
/// IDs are read here; the files' contents are never logged.
struct PushOptions: ParsableArguments {
    @Option(help: ArgumentHelp("APNs token-auth key (.p8). Default: $HERALD_APNS_KEY_FILE.", valueName: "file"))
    var apnsKeyFile: String?

    @Option(help: ArgumentHelp("Apple developer team ID of the APNs key. Default: $HERALD_APNS_TEAM_ID.", valueName: "id"))
    var apnsTeamID: String?

    @Option(help: ArgumentHelp("ID of the APNs key. Default: $HERALD_APNS_KEY_ID.", valueName: "id"))
    var apnsKeyID: String?

    @Option(help: ArgumentHelp("FCM service-account JSON. Default: $HERALD_FCM_SERVICE_ACCOUNT.", valueName: "file"))
    var fcmServiceAccount: String?

    @Option(help: ArgumentHelp("Most devices one user keeps; registering more drops the oldest.", valueName: "count"))
    var maxDevicesPerUser = 20

    private static func value(_ flag: String?, _ variable: String) -> String? {
        if let flag, !flag.isEmpty { return flag }
        if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty { return value }
        return nil
    }

    func validate() throws {
        guard maxDevicesPerUser >= 1 else { throw ValidationError("--max-devices-per-user must be at least 1") }
    }

    /// The push configuration from the flags and environment.
    var configuration: PushConfiguration {
        var push = PushConfiguration()
        push.apnsKeyFile = Self.value(apnsKeyFile, "HERALD_APNS_KEY_FILE")
        push.apnsTeamID = Self.value(apnsTeamID, "HERALD_APNS_TEAM_ID")
        push.apnsKeyID = Self.value(apnsKeyID, "HERALD_APNS_KEY_ID")
        push.fcmServiceAccountFile = Self.value(fcmServiceAccount, "HERALD_FCM_SERVICE_ACCOUNT")
        push.settings.rules.maxDevicesPerUser = maxDevicesPerUser
        return push
    }
}
