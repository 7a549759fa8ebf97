import ArgumentParser
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench pipeline`.
    struct Pipeline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record changes per second through match, compose and the reader store, versus a same-topology relay and a one-hop pass-through; then latency at a paced rate.")

        @Option(help: "Record changes pushed through each path.") var changes = 20_000
        @Option(help: "Subscriptions registered first (each change fires one).") var subscriptions = 10_000
        @Option(help: "Partitions of every topic.") var partitions: Int32 = 6
        @Option(help: "Changes per second of the paced run. Default: half of Herald's measured maximum.")
        var pacedRate: Double?
        @Option(help: "Seconds of the paced run; 0: none.") var pacedSeconds: Double = 10
        @Option(
            name: .customLong("kafka-property"),
            help: ArgumentHelp(
                "Extra librdkafka property of every client of every path (repeatable), e.g. linger.ms=1.",
                valueName: "key=value"))
        var kafkaProperties: [String] = []
        @Option(help: "How the paced run's probe users read their notifications: stream (server-sent events, as each is applied) or poll (fetches 1–20 ms apart).")
        var probe: PipelineBenchmark.ProbeMode = .stream
        @Option(help: "Topics of the paced run: fresh (its own, with a runtime of its own; the embedded broker walks a partition's whole log on every fetch) or shared (the maximum-rate run's, after its messages).")
        var pacedTopics: PipelineBenchmark.PacedTopics = .fresh
        @OptionGroup var output: BenchOutputOptions

        func validate() throws {
            guard changes >= 100, subscriptions >= 1, (1...64).contains(partitions) else {
                throw ValidationError("--changes ≥ 100, --subscriptions ≥ 1, --partitions 1…64")
            }
            guard (0...3_600).contains(pacedSeconds), pacedRate.map({ $0 > 0 && $0 <= 1_000_000 }) ?? true else {
                throw ValidationError("--paced-seconds 0…3600, --paced-rate above 0 and at most 1000000")
            }
            _ = try KafkaOptions.properties(from: kafkaProperties)
        }

        func run() async throws {
            try await runBenchmark(output, quiet: true) {
                var settings = PipelineBenchmark.Settings()
                (settings.changes, settings.subscriptions, settings.partitions) = (changes, subscriptions, partitions)
                (settings.pacedRate, settings.pacedSeconds) = (pacedRate, pacedSeconds)
                settings.kafkaProperties = try KafkaOptions.properties(from: kafkaProperties)
                (settings.probe, settings.pacedTopics) = (probe, pacedTopics)
                return try await PipelineBenchmark(settings: settings, logger: Logger(label: "herald.bench")).run()
            }
        }
    }
}

extension PipelineBenchmark.ProbeMode: ExpressibleByArgument {}
extension PipelineBenchmark.PacedTopics: ExpressibleByArgument {}
