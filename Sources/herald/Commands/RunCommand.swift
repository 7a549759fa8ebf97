import ArgumentParser
import Foundation
import HeraldAPI
import HeraldApp
import HeraldKafka
import HeraldReader
import HeraldStages
import Logging
import Metrics
import Prometheus

/// `herald run`: the stages and the HTTP server, on a real cluster or the embedded broker.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run Herald's stages and HTTP server (embedded broker unless --brokers is given).")

    @OptionGroup var kafka: KafkaOptions
    @OptionGroup var layout: TopicLayoutOptions
    @OptionGroup var options: RunOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if options.exactlyOnce && kafka.brokers == nil {
            throw ValidationError("""
                --exactly-once needs a real Kafka cluster (--brokers): the embedded broker \
                (librdkafka 2.0.2's mock) does not store offsets committed in transactions
                """)
        }
    }

    func run() async throws {
        let registry = PrometheusCollectorRegistry()
        // Metrics first: the sink creates its counter now.
        MetricsSystem.bootstrap(HeraldMetricsFactory.make(registry: registry))
        let sink = LogTopicSink()
        logging.bootstrap(sink: sink, instance: options.instanceID)
        let logger = Logger(label: "herald")
        try await reportingFailures {
            try await preflight()
            let properties = try kafka.extraProperties()
            // The embedded broker keeps nothing after exit; neither does its reader store.
            let temporaryDataDir = kafka.brokers == nil && options.dataDir == nil
                ? FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(UUID().uuidString)").path : nil
            defer { if let temporaryDataDir { try? FileManager.default.removeItem(atPath: temporaryDataDir) } }
            let configuration = try options.configuration(embedded: kafka.brokers == nil, dataDirectory: temporaryDataDir)
            let environment: KafkaEnvironment
            if let brokers = kafka.brokers {
                environment = KafkaEnvironment(brokers: brokers, extraProperties: properties, logger: logger)
            } else {
                environment = try KafkaEnvironment(embeddedBrokers: 1, extraProperties: properties, logger: logger)
                logger.notice("no --brokers: running on the embedded broker", metadata: ["bootstrap": .string(environment.bootstrapServers)])
            }
            let runtime: HeraldRuntime
            do {
                runtime = try await HeraldApp.buildRuntime(
                    configuration, environment: environment, catalog: kafka.catalog(layout), logSink: sink,
                    registry: registry, logger: logger)
            } catch let error as KafkaError {
                throw CommandFailure.runtime("cannot prepare Herald's topics on \(environment.bootstrapServers): \(error)")
            } catch let error as HeraldAppError {
                throw error.commandFailure
            }
            logger.info("herald running", metadata: [
                "bootstrap": .string(environment.bootstrapServers),
                "stages": .string(runtime.stages.isEmpty ? "none yet" : runtime.stages.map(\.rawValue).joined(separator: ",")),
                "http": .string("\(options.httpHost):\(options.httpPort)"),
            ])
            try await runtime.run()
        }
    }

    /// What can be checked before anything touches Kafka: the secrets the reader and API
    /// need, and the HTTP address (a taken port fails at once, naming the address).
    private func preflight() async throws {
        if try options.selectedStages().contains(.reader) {
            let embedded = kafka.brokers == nil
            let key = try Secrets.tokenKey(options.tokenKey, embedded: embedded)
            do { _ = try ChangeTokenSigner(keyString: key.value) } catch { throw CommandFailure.invalidInput("--token-key: \(error.reason)") }
            let secret = try Secrets.jwtSecret(options.jwtSecret, embedded: embedded)
            do { _ = try await APIAuthenticator(secret: secret.value) } catch { throw CommandFailure.invalidInput("--jwt-secret: \(error.reason)") }
        }
        do {
            try ListenAddress(host: options.httpHost, port: options.httpPort).checkAvailable()
        } catch {
            throw CommandFailure.runtime(error.reason)
        }
    }
}
