import ArgumentParser
import Logging

/// `herald bench …`: throughput measurements that print a table with a same-run baseline.
/// The benchmarks live in `HeraldBenchmarks`; each subcommand turns its options into a
/// benchmark's configuration, runs it and prints its table.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmarks, each against a baseline measured in the same run.",
        subcommands: [Kafka.self, Matcher.self, Pipeline.self, Payload.self, Reader.self])
}

extension AsyncParsableCommand {
    /// Runs a benchmark and prints the table it returns, reporting a failure as every
    /// command does (`error: …` on stderr, exit code 1).
    /// - Parameter logging: bootstrapped first; `quiet` raises its level to at least
    ///   `warning`, so stage logs do not interleave with the table.
    func runBenchmark(logging: LoggingOptions?, quiet: Bool = false, _ body: () async throws -> String) async throws {
        if var logging {
            if quiet, logging.logLevel < .warning { logging.logLevel = .warning }
            logging.bootstrap()
        }
        try await reportingFailures { print(try await body()) }
    }
}
