import ArgumentParser
import HeraldBenchmarks
import HeraldPipeline
import Logging
import Prometheus

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
                    logger: Logger(label: "herald.bench"), build: Self.stages).run()
                return PipelineBenchmark.table(result, changes: changes, subscriptions: subscriptions, partitions: partitions)
            }
        }

        /// The match, compose and reader stages as `herald run --stages match,compose,reader` wires them.
        // TODO(issue 12): HeraldBenchmarks calls HeraldApp.buildRuntime itself once it exists.
        @Sendable
        static func stages(
            environment: KafkaEnvironment, catalog: TopicCatalog, dataDirectory: String, logger: Logger
        ) async throws -> BenchmarkedPipeline {
            let options = try RunOptions.parse([
                "--stages", "match,compose,reader", "--http-port", "0", "--http-host", "127.0.0.1", "--instance-id", "bench",
                "--data-dir", dataDirectory,
            ])
            let runtime = try await HeraldRuntime.make(
                environment: environment, catalog: catalog, options: options, sink: LogTopicSink(),
                registry: PrometheusCollectorRegistry(), logger: logger)
            guard let store = runtime.parts.store, let table = runtime.parts.table else {
                throw CommandFailure.runtime("the pipeline stages did not start")
            }
            return BenchmarkedPipeline(
                producer: runtime.producer, subscriptionCount: { table.count },
                storedNotifications: { try await store.stats().notifications },
                run: { try await runtime.run() }, shutdown: { await runtime.group.triggerGracefulShutdown() })
        }
    }
}
