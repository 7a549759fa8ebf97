import ArgumentParser
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench reader`.
    struct Reader: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetches per second and latency of the reader's HTTP API under concurrent clients (wrk), versus /health/live.")

        @Option(help: "Users with a notification stream.") var users = 1_000
        @Option(help: "Notifications per user.") var notificationsPerUser = 50
        @Option(help: "Concurrent connections.") var connections = 32
        @Option(help: "Seconds per measurement.") var duration = 10
        @Option(help: "resultsLimit of each fetch.") var pageSize = 20
        @OptionGroup var output: BenchOutputOptions

        func validate() throws {
            guard users >= 1, notificationsPerUser >= 1, (1...1024).contains(connections), duration >= 1, pageSize >= 1 else {
                throw ValidationError("--users, --notifications-per-user, --duration, --page-size ≥ 1; --connections 1…1024")
            }
        }

        func run() async throws {
            try await runBenchmark(output, quiet: true) {
                try await ReaderBenchmark(
                    users: users, perUser: notificationsPerUser, connections: connections, seconds: duration,
                    pageSize: pageSize, logger: Logger(label: "herald.bench")
                ).report()
            }
        }
    }
}
