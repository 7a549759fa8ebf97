import Foundation
import HeraldModel
import HeraldPayload
import HeraldReader
import HeraldStages

/// Everything one Herald process is configured with — what `herald run` turns its flags
/// and environment into, and what the demo, the benchmarks and the end-to-end tests build
/// directly. The broker connection and topic layout are passed next to it
/// (`KafkaEnvironment`, `TopicCatalog`).
public struct HeraldConfiguration: Sendable {
    /// A secret and whether it is the built-in development value (logged as such).
    public struct Secret: Sendable {
        public var value: String
        public var isDevelopment: Bool

        public init(_ value: String, isDevelopment: Bool = false) {
            self.value = value
            self.isDevelopment = isDevelopment
        }

        /// The development value: 32 bytes, hex — a key and a secret at once. Only for the
        /// embedded broker, the demo and benchmarks; never with a real cluster.
        public static let development = Secret(String(repeating: "68657261", count: 8), isDevelopment: true)
        /// The development JWT secret `herald run` uses on the embedded broker.
        public static let developmentJWT = Secret("herald-development-secret-not-for-production-use", isDevelopment: true)
    }

    /// The stages this process runs. Default: all but `push` (`HeraldStage.standard`),
    /// which needs provider credentials (`push`).
    public var stages: [HeraldStage] = HeraldStage.standard
    /// This instance's name in logs, client IDs, transactional IDs and ungrouped consumers' groups.
    public var instanceID: String
    /// The `group.instance.id` of static group membership; `nil`: dynamic membership.
    public var staticInstanceID: String?
    /// Each consume→produce hop in a Kafka transaction (real clusters only). Default: off.
    public var exactlyOnce = false
    /// Where the HTTP server (health, metrics, API) listens. Default: 0.0.0.0:8080; port 0 picks one.
    public var httpHost = "0.0.0.0"
    public var httpPort = 8080
    /// The directory of the reader's store (`reader.sqlite`).
    public var dataDirectory: String
    /// How many notifications, and how old, the reader's store keeps per stream. Default:
    /// 1,000 notifications, 28 days.
    public var retention = RetentionPolicy()
    /// The app's localizations for server-side rendering, if any.
    public var localizations: LocalizationCatalog?
    /// The key that signs change tokens (hex or base64, ≥ 32 bytes; the same on every
    /// reader). Required when the reader runs.
    public var tokenKey: Secret?
    /// The HS256 secret of the API's bearer tokens (≥ 32 bytes). Required when the reader
    /// (and so the API) runs.
    public var jwtSecret: Secret?
    /// How long a graceful shutdown may take before what is left is abandoned. Default: 25 s.
    public var shutdownTimeout: Duration = .seconds(25)
    /// How long the assets stage waits before collecting an unreferenced file. Default: 3 days.
    public var assetGracePeriod: Duration = .seconds(3 * 86_400)
    /// The largest input record a stage accepts (match's record changes; compose's,
    /// schedule's and assets' inputs); a larger one goes to dead letters as `TOO_LARGE`.
    /// Default: 1 MiB.
    public var maxInputBytes = 1 << 20
    /// The push stage's provider credentials or transports, and its settings.
    public var push = PushConfiguration()
    /// How often the schedule stage looks for due schedules. Default: 1 s.
    public var scheduleTickInterval: Duration = .seconds(1)
    /// The clock of the compose, schedule and assets stages, milliseconds since 1970
    /// (tests move it by hand). Default: the system clock.
    public var clock: @Sendable () -> Int64 = { EpochMilliseconds.now() }
    /// Whether SIGTERM and SIGINT start a graceful shutdown. Default: yes (off in tests).
    public var handlesSignals = true
    /// Ends the process when a shutdown overran `shutdownTimeout` (tests pass something else).
    public var exit: @Sendable (Int32) -> Void = { Foundation.exit($0) }

    public init(instanceID: String, dataDirectory: String, tokenKey: Secret? = nil, jwtSecret: Secret? = nil) {
        self.instanceID = instanceID
        self.dataDirectory = dataDirectory
        self.tokenKey = tokenKey
        self.jwtSecret = jwtSecret
    }
}
