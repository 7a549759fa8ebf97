import HeraldAPI
import HeraldKafka
import HeraldReader
import HeraldStages
import Hummingbird
import Logging
import ServiceLifecycle

extension StageFactory {
    /// The HTTP API (docs/ARCHITECTURE.md §7) of a process that runs the reader: adds its
    /// routes to `router` and returns the services it needs besides the HTTP server — the
    /// schedule and device tables' followers and the stream closer.
    func makeAPI(
        on router: Router<BasicRequestContext>, store: NotificationStore, directory: StoredSubscriptionDirectory, notifier: StreamNotifier
    ) async throws -> [any Service] {
        var services: [any Service] = []
        let schedules = ScheduleTable()
        services.append(try CompactedTopicFollower(
            name: "api-schedules", consumer: "api-schedules", topic: TopicCatalog.schedules, deadLetterStage: "api.schedules",
            context: context, onReady: { schedules.gate.open() },
            apply: { message throws(Rejection.Reason) in try schedules.apply(message) }))
        let devices = DeviceTable(rules: configuration.push.settings.rules)
        services.append(try CompactedTopicFollower(
            name: "api-devices", consumer: "api-devices", topic: TopicCatalog.devices, deadLetterStage: "api.devices",
            context: context, onReady: { devices.gate.open() },
            apply: { message throws(Rejection.Reason) in try devices.apply(message) }))
        guard let jwtSecret = configuration.jwtSecret else { throw HeraldAppError(setting: .jwtSecret, reason: "is required to run the API") }
        if jwtSecret.isDevelopment {
            context.logger.warning("API bearer tokens use the development secret; set --jwt-secret or $HERALD_JWT_SECRET")
        }
        let authenticator: APIAuthenticator
        do {
            authenticator = try await APIAuthenticator(secret: jwtSecret.value)
        } catch {
            throw HeraldAppError(setting: .jwtSecret, reason: error.reason)
        }
        let api = HeraldAPI(
            store: store, badges: StoreBadges(store: store),
            publisher: KafkaHeraldPublisher(producer: context.producer, catalog: context.catalog, table: directory, schedules: schedules),
            directory: directory, schedules: schedules, notifier: notifier, authenticator: authenticator,
            devices: KafkaDeviceRegistry(producer: context.producer, catalog: context.catalog, table: devices))
        api.addRoutes(to: router)
        return services
    }
}

/// Ends the API's event streams when graceful shutdown begins, so the HTTP server can stop.
///
/// A service group shuts its services down one after the other, the last added first, and
/// the HTTP server's shutdown waits for the responses in progress — an open event stream
/// among them. So this closer goes after the server in the list: added before it, it was
/// told only once the server had stopped, and every open stream held the shutdown until
/// its next heartbeat write (15 s).
struct StreamCloser: Service {
    let notifier: StreamNotifier

    func run() async throws {
        try? await gracefulShutdown()
        notifier.finish()
    }
}
