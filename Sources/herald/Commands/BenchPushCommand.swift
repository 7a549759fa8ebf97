import ArgumentParser
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench push`.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes per second and p50/p99 from a notification on the notifications topic through the push stage to the local stand-in's acknowledgement, next to the APNs client alone and ready-made requests on the same HTTP/2 client.")

        @Option(help: "Pushes per closed-loop run.") var pushes = 50_000
        @Option(help: "Pushes in flight in the closed loops.") var concurrency = 256
        @Option(help: "HTTP/2 connections (client and baseline).") var connections = 2
        @Option(help: "Seconds of each paced run (client and stage) at half its measured rate.") var pacedSeconds = 5
        @Option(help: "Notifications of the stage-level maximum-rate run; 0: no stage-level run.") var notifications = 50_000
        @Option(help: "Recipients of the stage-level run's notifications.") var users = 1_000
        @Option(help: "Devices registered per recipient (pushes per notification).") var devicesPerUser = 1
        @Option(help: "Partitions of the stage-level run's topics.") var partitions: Int32 = 6
        @Option(help: "Notifications per second of the stage-level paced run (default: half the maximum).") var pacedRate: Double?
        @Option(help: "Notifications per batch of the push stage (default: the stage's).") var pushBatchSize: Int?
        @Option(help: "Pushes in flight in the push stage (default: the stage's).") var pushConcurrency: Int?
        @Option(help: "Push stage workers (group members) in the process (default: the stage's).") var pushWorkers: Int?
        @OptionGroup var output: BenchOutputOptions

        func validate() throws {
            guard pushes >= 1, (1...10_000).contains(concurrency), (1...64).contains(connections), pacedSeconds >= 1 else {
                throw ValidationError("--pushes, --paced-seconds ≥ 1; --concurrency 1…10000; --connections 1…64")
            }
            guard notifications >= 0, (1...1_000_000).contains(users), (1...20).contains(devicesPerUser), (1...256).contains(partitions),
                pacedRate.map({ $0 > 0 }) ?? true
            else {
                throw ValidationError("--notifications ≥ 0; --users 1…1000000; --devices-per-user 1…20; --partitions 1…256; --paced-rate > 0")
            }
            if let pushWorkers, !(1...64).contains(pushWorkers) { throw ValidationError("--push-workers must be 1…64") }
            for (flag, value) in [("--push-batch-size", pushBatchSize), ("--push-concurrency", pushConcurrency)] {
                if let value, !(1...10_000).contains(value) { throw ValidationError("\(flag) must be 1…10000, not \(value)") }
            }
        }

        func run() async throws {
            try await runBenchmark(output, quiet: true) {
                var benchmark = PushBenchmark(
                    pushes: pushes, concurrency: concurrency, connections: connections, pacedSeconds: pacedSeconds,
                    logger: Logger(label: "herald.bench"))
                (benchmark.notifications, benchmark.users, benchmark.devicesPerUser) = (notifications, users, devicesPerUser)
                (benchmark.partitions, benchmark.pacedRate) = (partitions, pacedRate)
                (benchmark.stageBatchSize, benchmark.stageConcurrency) = (pushBatchSize, pushConcurrency)
                benchmark.stageWorkers = pushWorkers
                return try await benchmark.report()
            }
        }
    }
}
