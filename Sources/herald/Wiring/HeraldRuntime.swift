import Foundation
import HeraldAPI
import HeraldKafka
import HeraldPipeline
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// Everything one `herald run` (or `herald demo`) process runs, wired together.
struct HeraldRuntime {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let producer: KafkaProducer
    let readiness: Readiness
    let services: [any Service]
    let stages: [HeraldStage]
    let logger: Logger
    /// The subscription table and the reader store, when those stages run here.
    let parts: RuntimeParts
    /// Runs `services`; `triggerGracefulShutdown()` stops it (SIGTERM and SIGINT do too).
    let group: ServiceGroup
    /// Bounds how long shutdown takes.
    let deadline: ShutdownDeadline

    /// Builds the runtime: ensures topics, creates the shared producer and the stage services.
    static func make(
        environment: KafkaEnvironment, catalog: TopicCatalog, options: RunOptions,
        sink: LogTopicSink, registry: PrometheusCollectorRegistry, logger: Logger
    ) async throws -> HeraldRuntime {
        let deadline = ShutdownDeadline(timeout: try options.shutdownTimeoutDuration(), logger: logger)
        let ensured = try await environment.ensureTopics(catalog)
        logger.info("topics ready", metadata: ["count": .stringConvertible(ensured.count), "created": .stringConvertible(ensured.filter(\.created).count)])
        let producer = try KafkaProducer(
            configuration: environment.producerConfiguration(clientID: "herald-\(options.instanceID)"), logger: logger)
        let readiness = Readiness()
        var services: [any Service] = [
            LogShipper(sink: sink, producer: producer, topic: catalog.name(TopicCatalog.logs), instance: options.instanceID),
        ]
        var running: [HeraldStage] = []
        let parts = RuntimeParts()
        for stage in try options.selectedStages() {
            let factory = StageFactory(
                environment: environment, catalog: catalog, options: options, readiness: readiness, logger: logger,
                parts: parts)
            if let stageServices = try factory.make(stage, sharedProducer: producer) {
                services += stageServices
                running.append(stage)
            } else if options.stages != "all" {
                // Deployment files name every stage; the ones still to be built are skipped, loudly.
                logger.warning("stage '\(stage.rawValue)' is not part of this build yet; skipped")
            }
        }
        let router = Router()
        // Before any route: Hummingbird applies a middleware to the routes added after it.
        router.add(middleware: ErrorBodyMiddleware())
        router.add(middleware: MetricsMiddleware())
        OperationsRoutes.add(to: router, readiness: readiness, registry: registry)
        if let store = parts.store {
            services += try await APIWiring.add(
                to: router, store: store, parts: parts, producer: producer, environment: environment, catalog: catalog,
                options: options, readiness: readiness, logger: logger)
        }
        let application = Application(
            router: router,
            server: .http1(configuration: HeraldAPI.httpConfiguration),
            configuration: .init(address: .hostname(options.httpHost, port: options.httpPort), serverName: "herald"),
            onServerRunning: { channel in parts.httpPort = channel.localAddress?.port },
            logger: logger)
        services.append(application)
        var configuration = ServiceGroupConfiguration(
            services: services.map { .init(service: deadline.tracking($0, name: Self.name(of: $0))) }
                + [.init(service: deadline, successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // After this, services are cancelled. `maximumCancellationDuration` stays unset: it
        // ends in `fatalError`; the deadline's own timer exits instead, naming what it abandons.
        configuration.maximumGracefulShutdownDuration = deadline.gracefulShare
        return HeraldRuntime(
            environment: environment, catalog: catalog, producer: producer, readiness: readiness,
            services: services, stages: running, logger: logger, parts: parts,
            group: ServiceGroup(configuration: configuration), deadline: deadline)
    }

    /// Runs until SIGTERM/SIGINT, then shuts every service down gracefully, within
    /// `--shutdown-timeout` (see `ShutdownDeadline`).
    func run() async throws {
        defer { deadline.disarm() }
        do {
            try await group.run()
        } catch {
            await producer.close(timeout: deadline.flushShare)
            throw error
        }
        await producer.close(timeout: deadline.flushShare)
    }

    /// A service's name in the log line of an abandoned shutdown.
    private static func name(of service: any Service) -> String {
        String(describing: type(of: service))
    }
}
