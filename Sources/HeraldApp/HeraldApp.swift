import HeraldAPI
import HeraldKafka
import HeraldReader
import HeraldStages
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// Herald's composition root: the one place where stages, the reader, the HTTP API and
/// the operations routes are put together. `herald run`, `herald demo`, the benchmarks and
/// the end-to-end tests all build their process here.
public enum HeraldApp {
    /// Ensures the catalog's topics, then builds every service of the configured stages —
    /// in dependency order: match (its subscription table), compose, schedule, assets, the
    /// reader (its store), then the HTTP API over the store, with a directory of every
    /// subscription in SQLite (the match stage holds only its partitions'), and last the
    /// push stage with its provider clients (so a failing step never leaves them open).
    ///
    /// - Parameters:
    ///   - logSink: what the log handler collected, shipped to the `logs` topic; `nil`: no shipping.
    ///   - registry: the metrics served on `/metrics`.
    /// - Throws: `HeraldAppError` for a setting Herald cannot run with; `KafkaError` when
    ///   the topics cannot be prepared. The Kafka clients made before a failing step are
    ///   closed first (`BuildClients`).
    public static func buildRuntime(
        _ configuration: HeraldConfiguration, environment: KafkaEnvironment, catalog: TopicCatalog,
        logSink: LogTopicSink? = nil, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger
    ) async throws -> HeraldRuntime {
        try await buildRuntime(
            configuration, environment: environment, catalog: catalog, logSink: logSink, registry: registry, logger: logger,
            clients: BuildClients())
    }

    /// `buildRuntime` noting the Kafka clients it makes in `clients`, which closes them when
    /// a later step fails.
    static func buildRuntime(
        _ configuration: HeraldConfiguration, environment: KafkaEnvironment, catalog: TopicCatalog,
        logSink: LogTopicSink?, registry: PrometheusCollectorRegistry, logger: Logger, clients: BuildClients
    ) async throws -> HeraldRuntime {
        let deadline = ShutdownDeadline(timeout: configuration.shutdownTimeout, logger: logger, exit: configuration.exit)
        // Before Kafka is contacted: a push stage without credentials is a setting to fix, not a retry.
        if configuration.stages.contains(.push) { try configuration.push.check() }
        let ensured = try await environment.ensureTopics(catalog)
        logger.info("topics ready", metadata: [
            "count": .stringConvertible(ensured.count), "created": .stringConvertible(ensured.filter(\.created).count),
        ])
        let producer = clients.producer(try KafkaProducer(
            configuration: environment.producerConfiguration(clientID: "herald-\(configuration.instanceID)"), logger: logger))
        do {
            let readiness = Readiness()
            let context = StageFactory.context(
                environment: environment, catalog: catalog, configuration: configuration, readiness: readiness,
                logger: logger, producer: producer, clients: clients)
            let factory = StageFactory(environment: environment, configuration: configuration, context: context, clients: clients)
            let stages = HeraldStage.allCases.filter(configuration.stages.contains)
            var services: [any Service] = []
            if let logSink {
                services.append(LogShipper(
                    sink: logSink, producer: producer, topic: catalog.name(TopicCatalog.logs), instance: configuration.instanceID))
            }
            let match = stages.contains(.match) ? try factory.makeMatch() : nil
            services += match?.services ?? []
            if stages.contains(.compose) { services += try factory.makeCompose() }
            if stages.contains(.schedule) { services += try factory.makeSchedule() }
            if stages.contains(.assets) { services += try factory.makeAssets() }
            let notifier = StreamNotifier()
            let reader = stages.contains(.reader) ? try factory.makeReader(notifier: notifier) : nil
            services += reader?.services ?? []

            let router = Router()
            // Before any route: Hummingbird applies a middleware to the routes added after it.
            router.add(middleware: ErrorBodyMiddleware())
            router.add(middleware: MetricsMiddleware())
            OperationsRoutes.add(to: router, readiness: readiness, registry: registry)
            var directory: StoredSubscriptionDirectory?
            if let store = reader?.store {
                // The API lists and checks every user's subscriptions: it files the whole topic in
                // SQLite, holding none in memory, while the match stage holds only its partitions'
                // (docs/ARCHITECTURE.md §9).
                let (apiDirectory, loader) = try factory.subscriptionDirectory()
                services.append(loader)
                directory = apiDirectory
                services += try await factory.makeAPI(on: router, store: store, directory: apiDirectory, notifier: notifier)
            }
            // Last of the steps that can throw: the push stage opens provider clients (HTTP/2
            // connection pools), which nothing would close if a later step failed.
            if stages.contains(.push) { services += try factory.makePush() }
            let listening = ListeningPort()
            services.append(Application(
                router: router,
                server: .http1(configuration: HeraldAPI.httpConfiguration),
                configuration: .init(address: .hostname(configuration.httpHost, port: configuration.httpPort), serverName: "herald"),
                onServerRunning: { channel in listening.set(channel.localAddress?.port) },
                logger: logger))
            // After the server: shut down before it (see `StreamCloser`).
            if reader != nil { services.append(StreamCloser(notifier: notifier)) }
            // Every condition fails `/health/ready` from the start until its service says it is ready.
            readiness.register(services)
            var groupConfiguration = ServiceGroupConfiguration(
                services: services.map { .init(service: deadline.tracking($0, name: String(describing: type(of: $0)))) }
                    + [.init(service: deadline, successTerminationBehavior: .ignore)],
                gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [], logger: logger)
            // After this, services are cancelled. `maximumCancellationDuration` stays unset: it
            // ends in `fatalError`; the deadline's own timer exits instead, naming what it abandons.
            groupConfiguration.maximumGracefulShutdownDuration = deadline.gracefulShare
            let runtime = HeraldRuntime(
                environment: environment, catalog: catalog, producer: producer, readiness: readiness, stages: stages,
                store: reader?.store, directory: directory, matchTable: match?.table, group: ServiceGroup(configuration: groupConfiguration),
                deadline: deadline, listening: listening)
            clients.built()
            return runtime
        } catch {
            // No service owns the clients made so far: close them, or they stay open.
            await clients.close()
            throw error
        }
    }
}
