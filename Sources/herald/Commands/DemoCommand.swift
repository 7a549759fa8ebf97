import ArgumentParser
import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldPushClient
import HeraldStages
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
        let registry = PrometheusCollectorRegistry()
        // Metrics first: the sink creates its counter now.
        MetricsSystem.bootstrap(HeraldMetricsFactory.make(registry: registry))
        let sink = LogTopicSink()
        quiet.bootstrap(sink: sink, instance: "demo")
        let logger = Logger(label: "herald.demo")
        try await reportingFailures {
            let subscriptions = try lines(of: "subscriptions.jsonl")
            let changes = try lines(of: "changes.jsonl")
            let users = try lines(of: "users.jsonl")
            let started = ContinuousClock.now
            let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
            let catalog = TopicCatalog(prefix: "herald.", partitions: 3)
            say("1. Embedded Kafka broker on \(environment.bootstrapServers); \(TopicCatalog.all.count) topics of \(catalog.partitions) partitions")
            let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-demo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dataDir) }
            // The APNs/FCM stand-in on loopback, with test keys and a CA made now: the push
            // stage's clients are pointed at it by the flags a proxy would use.
            let accounts = try StandInAccounts()
            let standIn = try await PushStandIn.start(accounts: accounts, logger: logger)
            let caFile = dataDir.path + "-standin-ca.pem"
            defer { try? FileManager.default.removeItem(atPath: caFile) }
            try standIn.writeCAFile(to: caFile)
            var arguments = [
                "--stages", "all", "--http-port", "0", "--http-host", "127.0.0.1", "--instance-id", "demo", "--data-dir", dataDir.path,
                "--apns-team-id", accounts.teamID, "--apns-key-id", accounts.keyID, "--push-ca-file", caFile,
                "--apns-production-url", standIn.baseURL, "--apns-development-url", standIn.baseURL,
                "--fcm-url", standIn.baseURL, "--fcm-token-url", standIn.tokenURL,
            ]
            let localizations = URL(fileURLWithPath: samples).appendingPathComponent("localizations").path
            if FileManager.default.fileExists(atPath: localizations) { arguments += ["--localizations", localizations] }
            let options = try RunOptions.parse(arguments)
            var configuration = try options.configuration(embedded: true)
            configuration.stages = HeraldStage.allCases
            configuration.push.apnsKey = accounts.apnsPrivateKeyPEM
            let runtime = try await HeraldApp.buildRuntime(
                configuration, environment: environment, catalog: catalog, logSink: sink, registry: registry, logger: logger)
            say("2. Stages running: \(runtime.stages.map(\.rawValue).joined(separator: ", ")); HTTP API on 127.0.0.1")
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await runtime.run() }
                let script = DemoScript(
                    runtime: runtime, environment: environment, catalog: catalog, logger: logger, waitSeconds: waitSeconds,
                    pushes: DemoPushes(standIn: standIn, say: say))
                try await script.play(subscriptions: subscriptions, changes: changes, users: users)
                await runtime.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            await standIn.stop()
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
}
