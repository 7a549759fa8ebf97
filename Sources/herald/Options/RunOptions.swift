import ArgumentParser
import Foundation
import HeraldApp
import HeraldStages

/// What `herald run` starts.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Stages to run: 'all' (push only with provider credentials) or a comma list of \(HeraldStage.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "stages"))
    var stages = "all"

    @OptionGroup(title: "Push") var push: PushOptions

    @Option(help: "Port of the HTTP server (health, metrics, API).")
    var httpPort = 8080

    @Option(help: "Address the HTTP server listens on.")
    var httpHost = "0.0.0.0"

    @Option(help: ArgumentHelp(
        "Directory for local state (the reader's store). Default: var/herald with --brokers; on the embedded broker a temporary directory removed at exit.",
        valueName: "dir"))
    var dataDir: String?

    @Option(help: ArgumentHelp(
        "App localizations for server-side rendering: <lang>.lproj/Localizable.strings|.stringsdict and Localizable.xcstrings.",
        valueName: "dir"))
    var localizations: String?

    @Option(help: ArgumentHelp(
        "Key that signs change tokens (hex or base64, ≥ 32 bytes; same on every reader). Default: $HERALD_TOKEN_KEY, or a development key on the embedded broker.",
        valueName: "key"))
    var tokenKey: String?

    @Option(help: ArgumentHelp(
        "HS256 secret of the API's bearer tokens (≥ 32 bytes). Default: $HERALD_JWT_SECRET, or a development secret on the embedded broker.",
        valueName: "secret"))
    var jwtSecret: String?

    @Flag(help: "Run each consume→produce hop in a Kafka transaction (needs a real cluster).")
    var exactlyOnce = false

    @Option(
        name: .customLong("instance-id"),
        help: ArgumentHelp(
            "This instance's stable name in logs, transactional IDs and static group membership (group.instance.id). Default: $POD_NAME; without it, host name and process ID, and dynamic membership.",
            valueName: "name"))
    var explicitInstanceID: String?

    @Option(help: ArgumentHelp(
        "How long SIGTERM/SIGINT may take: finish the batch, commit, leave the groups, flush. After it, what is left is abandoned (redone later) and the process exits 1.",
        valueName: "duration"))
    var shutdownTimeout = "25s"

    @Option(help: ArgumentHelp(
        "How long the assets stage waits before collecting a file no record refers to: a number and ms, s, m, h or d.",
        valueName: "duration"))
    var assetGracePeriod = "3d"

    /// The instance's name: `--instance-id`, else `$POD_NAME`, else host name and process ID.
    var instanceID: String { staticInstanceID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)" }

    /// The `group.instance.id` of static group membership: only a name given explicitly
    /// (`--instance-id` or `$POD_NAME`) is stable across restarts.
    var staticInstanceID: String? {
        if let explicitInstanceID, !explicitInstanceID.isEmpty { return explicitInstanceID }
        if let pod = ProcessInfo.processInfo.environment["POD_NAME"], !pod.isEmpty { return pod }
        return nil
    }

    /// `--shutdown-timeout` as a duration.
    func shutdownTimeoutDuration() throws -> Duration {
        try DurationArgument.parse(shutdownTimeout, option: "--shutdown-timeout")
    }

    /// The data directory: `--data-dir`, else `var/herald` with `--brokers` and `nil` on the
    /// embedded broker (the caller makes a temporary one).
    func dataDirectory(embedded: Bool) -> String? {
        dataDir ?? (embedded ? nil : "var/herald")
    }

    func validate() throws {
        _ = try selectedStages()
        if try shutdownTimeoutDuration() < .seconds(1) { throw ValidationError("--shutdown-timeout must be at least 1s") }
        guard (0...65535).contains(httpPort) else { throw ValidationError("--http-port must be between 0 and 65535") }
        _ = try assetGracePeriodDuration()
    }

    func selectedStages() throws -> [HeraldStage] {
        if stages == "all" { return push.configuration.canPush ? HeraldStage.allCases : HeraldStage.standard }
        return try stages.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let stage = HeraldStage(rawValue: trimmed) else {
                throw ValidationError(
                    "unknown stage '\(trimmed)'; stages are: \(HeraldStage.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return stage
        }
    }

    /// `--asset-grace-period` as a duration.
    func assetGracePeriodDuration() throws -> Duration {
        try DurationArgument.parse(assetGracePeriod, option: "--asset-grace-period")
    }

    /// The process's configuration. The secrets, needed only when the reader runs, come from
    /// the flags, then the environment, then (embedded broker only) the development values;
    /// `dataDirectory` overrides `--data-dir` (the caller's temporary directory on the
    /// embedded broker).
    func configuration(embedded: Bool, dataDirectory: String? = nil) throws -> HeraldConfiguration {
        var configuration = HeraldConfiguration(
            instanceID: instanceID, dataDirectory: dataDirectory ?? self.dataDirectory(embedded: embedded) ?? "var/herald")
        if try selectedStages().contains(.reader) {
            let tokenKey = try Secrets.tokenKey(self.tokenKey, embedded: embedded)
            let jwtSecret = try Secrets.jwtSecret(self.jwtSecret, embedded: embedded)
            configuration.tokenKey = .init(tokenKey.value, isDevelopment: tokenKey.development)
            configuration.jwtSecret = .init(jwtSecret.value, isDevelopment: jwtSecret.development)
        }
        configuration.stages = try selectedStages()
        configuration.staticInstanceID = staticInstanceID
        configuration.exactlyOnce = exactlyOnce
        configuration.httpHost = httpHost
        configuration.httpPort = httpPort
        configuration.localizations = try localizations.map { try LocalizationDirectory.load($0) }
        configuration.shutdownTimeout = try shutdownTimeoutDuration()
        configuration.assetGracePeriod = try assetGracePeriodDuration()
        configuration.push = push.configuration
        return configuration
    }
}

extension HeraldAppError {
    /// The failure `herald run` reports, naming the flag of the setting.
    var commandFailure: CommandFailure {
        let flag = switch setting {
        case .tokenKey: "--token-key"
        case .jwtSecret: "--jwt-secret"
        case .dataDirectory: "--data-dir"
        case .pushCredentials: "--stages push"
        }
        return .invalidInput("\(flag): \(reason)")
    }
}
