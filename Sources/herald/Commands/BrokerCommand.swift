import ArgumentParser
import Foundation
import HeraldKafka
import HeraldStages
import Logging
import ServiceLifecycle

/// `herald broker`: the embedded Kafka broker alone, with Herald's topics, until stopped.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker",
        abstract: "Run the embedded Kafka broker (librdkafka's mock cluster) on 127.0.0.1 until stopped.",
        discussion: """
            Prints the bootstrap address on stdout; pass it to other commands with --brokers. \
            Memory only: each partition keeps only about its newest 5 MB.
            """)

    @Option(help: "Number of brokers in the cluster.")
    var brokerCount = 1

    @Option(help: "Prefix of every Herald topic.")
    var topicPrefix = "herald."

    @OptionGroup var layout: TopicLayoutOptions
    @OptionGroup var logging: LoggingOptions

    @Option(help: ArgumentHelp("Also write the bootstrap address to this file.", valueName: "path"))
    var bootstrapFile: String?

    func validate() throws {
        guard (1...9).contains(brokerCount) else { throw ValidationError("--broker-count must be between 1 and 9") }
    }

    func run() async throws {
        logging.bootstrap()
        let logger = Logger(label: "herald.broker")
        try await reportingFailures {
            let environment = try KafkaEnvironment(embeddedBrokers: brokerCount, logger: logger)
            let catalog = TopicCatalog(prefix: topicPrefix, partitions: layout.partitions, replicationFactor: layout.replicationFactor)
            let topics = try await environment.ensureTopics(catalog)
            FileHandle.standardOutput.write(Data((environment.bootstrapServers + "\n").utf8))
            if let bootstrapFile {
                try Data((environment.bootstrapServers + "\n").utf8).write(to: URL(fileURLWithPath: bootstrapFile))
            }
            logger.info("embedded broker ready", metadata: [
                "bootstrap": .string(environment.bootstrapServers), "topics": .stringConvertible(topics.count),
            ])
            let group = ServiceGroup(
                services: [HoldService(environment: environment)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            try await group.run()
        }
    }
}

/// Keeps a value alive until graceful shutdown (the embedded broker lives as long as its owner).
struct HoldService: Service {
    let environment: KafkaEnvironment

    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(environment) {}
    }
}
