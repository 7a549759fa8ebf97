import ArgumentParser
import HeraldBenchmarks
import HeraldStages
import Logging

extension BenchCommand {
    /// `herald bench pipeline`.
    struct Pipeline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record changes per second through match, compose and the reader store, versus a raw pass-through.")

        @Option(help: "Record changes to push through.")
        var changes = 20_000

        @Option(help: "Subscriptions registered first (each change fires one).")
        var subscriptions = 10_000

        @Option(help: "Partitions of every topic.")
        var partitions: Int32 = 6

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard changes >= 100, subscriptions >= 1, (1...64).contains(partitions) else {
                throw ValidationError("--changes ≥ 100, --subscriptions ≥ 1, --partitions 1…64")
            }
        }

        func run() async throws {
            try await runBenchmark(logging: logging, quiet: true) {
                let result = try await PipelineBenchmark(
                    changes: changes, subscriptions: subscriptions, partitions: partitions,
                    logger: Logger(label: "herald.bench")).run()
                return PipelineBenchmark.table(result, changes: changes, subscriptions: subscriptions, partitions: partitions)
            }
        }
    }
}
