import ArgumentParser
import Foundation
import HeraldPipeline

/// What `herald run` starts.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Stages to run: 'all' or a comma list of \(HeraldStage.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "stages"))
    var stages = "all"

    @Option(help: "Port of the HTTP server (health, metrics, API).")
    var httpPort = 8080

    @Option(help: "Address the HTTP server listens on.")
    var httpHost = "0.0.0.0"

    @Option(help: "Directory for local state (the reader's store).")
    var dataDir = "var/herald"

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

    @Option(help: "This instance's name in logs and transactional IDs (default: host name and process ID).")
    var instanceID = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"

    @Option(help: ArgumentHelp(
        "How long the assets stage waits before collecting a file no record refers to: a number and ms, s, m, h or d.",
        valueName: "duration"))
    var assetGracePeriod = "3d"

    func validate() throws {
        _ = try selectedStages()
        guard (0...65535).contains(httpPort) else { throw ValidationError("--http-port must be between 0 and 65535") }
        _ = try assetGracePeriodDuration()
    }

    func selectedStages() throws -> [HeraldStage] {
        if stages == "all" { return HeraldStage.allCases }
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
}
