import ArgumentParser
import HeraldBenchmarks
import Logging

/// `herald bench …`: throughput measurements that print a table with a same-run baseline.
/// The benchmarks live in `HeraldBenchmarks`; each subcommand turns its options into a
/// benchmark's configuration, runs it and prints its report.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmarks, each against a baseline measured in the same run.",
        subcommands: [Kafka.self, Matcher.self, Pipeline.self, Payload.self, Reader.self, Push.self])
}

extension AsyncParsableCommand {
    /// Runs a benchmark and prints its report — the table, or with `--json` one JSON object
    /// and nothing else on stdout — reporting a failure as every command does (`error: …`
    /// on stderr, exit code 1). Logs go to stderr; `quiet` raises their level to at least
    /// `warning`, so stage logs do not bury the result.
    func runBenchmark(_ output: BenchOutputOptions, quiet: Bool = false, _ body: () async throws -> any BenchmarkReport) async throws {
        var logging = output.logging
        if quiet, logging.logLevel < .warning { logging.logLevel = .warning }
        logging.bootstrap()
        try await reportingFailures {
            let report = try await body()
            print(output.json ? try report.json() : report.table)
        }
    }
}
