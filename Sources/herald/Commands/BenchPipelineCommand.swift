import ArgumentParser
import Foundation
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
            var quiet = logging
            if quiet.logLevel < .warning { quiet.logLevel = .warning }
            quiet.bootstrap()
            try await reportingFailures {
                let result = try await PipelineBenchmark(
                    changes: changes, subscriptions: subscriptions, partitions: partitions,
                    logger: Logger(label: "herald.bench")).run()
                print(PipelineBenchmark.table(result, changes: changes, subscriptions: subscriptions, partitions: partitions))
            }
        }
    }
}

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
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard users >= 1, notificationsPerUser >= 1, (1...1024).contains(connections), duration >= 1, pageSize >= 1 else {
                throw ValidationError("--users, --notifications-per-user, --duration, --page-size ≥ 1; --connections 1…1024")
            }
        }

        func run() async throws {
            var quiet = logging
            if quiet.logLevel < .warning { quiet.logLevel = .warning }
            quiet.bootstrap()
            try await reportingFailures {
                let benchmark = ReaderBenchmark(
                    users: users, perUser: notificationsPerUser, connections: connections, seconds: duration,
                    pageSize: pageSize, logger: Logger(label: "herald.bench"))
                print(benchmark.table(try await benchmark.run()))
            }
        }
    }
}
