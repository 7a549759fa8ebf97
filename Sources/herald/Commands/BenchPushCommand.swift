import ArgumentParser
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench push`.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes per second and p50/p99 through the APNs client against the local stand-in, versus ready-made requests on the same HTTP/2 client.")

        @Option(help: "Pushes per closed-loop run.") var pushes = 50_000
        @Option(help: "Pushes in flight in the closed loops.") var concurrency = 256
        @Option(help: "HTTP/2 connections (client and baseline).") var connections = 2
        @Option(help: "Seconds of the paced run at half the client's rate.") var pacedSeconds = 5
        @OptionGroup var output: BenchOutputOptions

        func validate() throws {
            guard pushes >= 1, (1...10_000).contains(concurrency), (1...64).contains(connections), pacedSeconds >= 1 else {
                throw ValidationError("--pushes, --paced-seconds ≥ 1; --concurrency 1…10000; --connections 1…64")
            }
        }

        func run() async throws {
            try await runBenchmark(output, quiet: true) {
                try await PushBenchmark(
                    pushes: pushes, concurrency: concurrency, connections: connections, pacedSeconds: pacedSeconds,
                    logger: Logger(label: "herald.bench")
                ).report()
            }
        }
    }
}
