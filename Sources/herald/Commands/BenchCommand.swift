import ArgumentParser
import Foundation
import HeraldKafka
import Logging

/// `herald bench …`: throughput measurements that print a table with a same-run baseline.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmarks, each against a baseline measured in the same run.",
        subcommands: [Kafka.self, Matcher.self, Pipeline.self, Payload.self, Reader.self])

    struct Kafka: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Produce and consume throughput: HeraldKafka versus a minimal loop over librdkafka's C API.")

        @Option(help: "Messages per run.")
        var messages = 200_000

        @Option(help: "Value size in bytes.")
        var size = 200

        @Option(help: "Partitions of the benchmark topics (the embedded broker keeps ~5 MB per partition).")
        var partitions: Int32 = 16

        @Option(help: "Runs of each path; the best run counts.")
        var rounds = 3

        @Option(help: "HeraldKafka: messages per send call.")
        var batchSize = 5_000

        @Option(help: "HeraldKafka: send calls in flight at once.")
        var inFlight = 4

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard messages >= 1000 else { throw ValidationError("--messages must be at least 1000") }
            guard (1...1_000_000).contains(size) else { throw ValidationError("--size must be between 1 and 1000000") }
            guard Int64(messages) * Int64(size) / Int64(partitions) < 4_000_000 else {
                throw ValidationError("messages × size / partitions must stay under 4 MB: the embedded broker keeps ~5 MB per partition")
            }
            guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 20") }
            guard batchSize >= 1, (1...64).contains(inFlight) else { throw ValidationError("--batch-size ≥ 1 and --in-flight 1…64") }
        }

        func run() async throws {
            logging.bootstrap()
            try await reportingFailures {
                let benchmark = try KafkaBenchmark(
                    messages: messages, size: size, partitions: partitions, batchSize: batchSize, inFlight: inFlight,
                    logger: Logger(label: "herald.bench"))
                let results = try await benchmark.run(rounds: rounds)
                print(KafkaBenchmark.table(results, messages: messages, size: size, partitions: partitions, rounds: rounds))
            }
        }
    }

    struct Matcher: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Changes matched per second against 1k…1M subscriptions, indexed versus scanning all (same run).")

        @Option(help: "Subscription counts, comma-separated.")
        var sizes = "1000,10000,100000,1000000"

        @Option(help: "Changes matched per size (the scan baseline uses fewer at large sizes).")
        var changes = 100_000

        @Option(help: "Largest size also measured by scanning every subscription (the baseline).")
        var scanLimit = 100_000

        func run() async throws {
            try await reportingFailures {
                let counts = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
                    throw CommandFailure.invalidInput("--sizes expects positive numbers, e.g. 1000,10000,100000")
                }
                let rows = try MatcherBenchmark(changes: changes, scanLimit: scanLimit).run(sizes: counts)
                print(MatcherBenchmark.table(rows))
            }
        }
    }

    struct Payload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Notifications composed per second (small, typical, oversized) versus only encoding them (same run).")

        @Option(help: "Notifications per measurement. Default: calibrated to about 2 s per row.")
        var count: Int?

        func run() async throws {
            try await reportingFailures {
                if let count, count < 1 { throw CommandFailure.invalidInput("--count must be at least 1") }
                print(PayloadBenchmark.table(try PayloadBenchmark(count: count).run()))
            }
        }
    }
}
