import ArgumentParser
import Foundation
import HeraldKafka
import HeraldModel
import HeraldPipeline
import Logging
import Metrics
import Prometheus

/// `herald demo`: the whole path on the embedded broker with sample data, then exits.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run Herald end to end on the embedded broker with sample data, show what comes out, and exit.")

    @Option(help: ArgumentHelp("Directory with subscriptions.jsonl and changes.jsonl.", valueName: "dir"))
    var samples = "samples"

    @Option(help: "How long to wait for the pipeline's output.")
    var waitSeconds = 30

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        var quiet = logging
        if quiet.logLevel < .warning { quiet.logLevel = .warning }
        let sink = LogTopicSink()
        quiet.bootstrap(sink: sink, instance: "demo")
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "herald.demo")
        try await reportingFailures {
            let subscriptions = try lines(of: "subscriptions.jsonl")
            let changes = try lines(of: "changes.jsonl")
            let started = ContinuousClock.now
            let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
            let catalog = TopicCatalog(prefix: "herald.", partitions: 3)
            say("1. Embedded Kafka broker on \(environment.bootstrapServers); \(TopicCatalog.all.count) topics of \(catalog.partitions) partitions")
            let options = try RunOptions.parse(["--stages", "all", "--http-port", "0", "--http-host", "127.0.0.1", "--instance-id", "demo"])
            let runtime = try await HeraldRuntime.make(
                environment: environment, catalog: catalog, options: options, sink: sink, registry: registry, logger: logger)
            say("2. Stages running: \(runtime.stages.map(\.rawValue).joined(separator: ", "))")
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await runtime.run() }
                try await publish(subscriptions, changes, runtime: runtime)
                try await show(runtime: runtime, environment: environment, catalog: catalog, logger: logger)
                await runtime.group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            say("\nDone in \(started.duration(to: .now).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))).")
        }
    }

    private func say(_ line: String) { print(line) }

    private func lines(of name: String) throws -> [Data] {
        let url = URL(fileURLWithPath: samples).appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else {
            throw CommandFailure.invalidInput("cannot read \(url.path); run from the repository root or pass --samples DIR")
        }
        return jsonLines(data).map(\.bytes)
    }

    private func publish(_ subscriptions: [Data], _ changes: [Data], runtime: HeraldRuntime) async throws {
        let codec = WireCodec()
        let catalog = runtime.catalog
        let subscriptionMessages = subscriptions.map { line in
            OutgoingMessage(
                topic: catalog.name(TopicCatalog.subscriptions),
                key: (try? codec.decode(Subscription.self, from: line))?.partitionKey ?? "invalid", value: line)
        }
        _ = try await runtime.producer.send(subscriptionMessages)
        say("3. Registered \(subscriptions.count) subscriptions (query, zone, database; private, shared, public; one fires once)")
        let changeMessages = changes.map { line in
            OutgoingMessage(
                topic: catalog.name(TopicCatalog.recordChanges),
                key: (try? codec.decode(RecordChange.self, from: line))?.partitionKey ?? "unparsed", value: line)
        }
        _ = try await runtime.producer.send(changeMessages)
        say("4. Published \(changes.count) record changes (two of them malformed on purpose)")
    }

    private func show(runtime: HeraldRuntime, environment: KafkaEnvironment, catalog: TopicCatalog, logger: Logger) async throws {
        let reader = TopicReader(client: environment.client, logger: logger)
        let matches = try await reader.read(
            catalog.name(TopicCatalog.matches), partitions: catalog.partitions, count: 7, timeout: .seconds(waitSeconds))
        say("\n5. Matches (topic \(catalog.name(TopicCatalog.matches)), keyed by recipient):")
        let decoded = matches.compactMap { $0.value.flatMap { try? WireCodec().decode(Match.self, from: $0) } }
        for match in decoded.sorted(by: { $0.change.changeID < $1.change.changeID }) {
            let reason = match.queryNotificationReason.map { " \($0.rawValue)" } ?? ""
            say("   \(match.change.changeID) → \(match.recipient.padding(toLength: 7, withPad: " ", startingAt: 0)) "
                + "\(match.subscription.subscriptionID) (\(match.notificationType.rawValue)\(reason)) id \(match.notificationID)")
        }
        let deadLetters = try await reader.read(
            catalog.name(TopicCatalog.deadLetters), partitions: catalog.partitions, count: 2, timeout: .seconds(10))
        say("\n6. Dead letters (topic \(catalog.name(TopicCatalog.deadLetters))):")
        for record in deadLetters.compactMap(DeadLetter.Record.init) {
            say("   \(record.sourceTopic)[\(record.sourcePartition)]@\(record.sourceOffset) \(record.code): \(record.reason.prefix(110))")
        }
        guard !matches.isEmpty else { throw CommandFailure.runtime("no matches arrived within \(waitSeconds) s") }
        let admin = try KafkaAdmin(configuration: environment.client, logger: logger)
        try? await Task.sleep(for: .seconds(1.5))  // let the stage's offsets commit
        let rows = try await TopicReport.collect(admin: admin, catalog: catalog)
        await admin.close()
        say("\n7. Topics:")
        say(TopicReport.table(rows.filter { $0.messages > 0 }).split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
    }
}
