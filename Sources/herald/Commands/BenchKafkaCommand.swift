import ArgumentParser
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench kafka`.
    struct Kafka: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Produce and consume throughput: HeraldKafka versus a minimal loop over librdkafka's C API.")

        @Option(help: "Messages per run.") var messages = 200_000
        @Option(help: "Value size in bytes.") var size = 200
        @Option(help: "Partitions of the benchmark topics (the embedded broker keeps ~5 MB per partition).")
        var partitions: Int32 = 16
        @Option(help: "Rounds; each runs raw and HeraldKafka back to back, in alternating order.") var rounds = 5
        @Option(help: "HeraldKafka: messages per send call.") var batchSize = 5_000
        @Option(help: "HeraldKafka: batches enqueued behind the oldest one still awaited (default: librdkafka's queue full).")
        var inFlight: Int?
        @OptionGroup var output: BenchOutputOptions

        func validate() throws {
            guard messages >= 1000 else { throw ValidationError("--messages must be at least 1000") }
            guard (1...1_000_000).contains(size) else { throw ValidationError("--size must be between 1 and 1000000") }
            guard Int64(messages) * Int64(size) / Int64(partitions) < 4_000_000 else {
                throw ValidationError("messages × size / partitions must stay under 4 MB: the embedded broker keeps ~5 MB per partition")
            }
            guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 20") }
            guard batchSize >= 1, inFlight.map({ (1...64).contains($0) }) ?? true else { throw ValidationError("--batch-size ≥ 1 and --in-flight 1…64") }
        }

        func run() async throws {
            try await runBenchmark(output) {
                try await KafkaBenchmark(
                    messages: messages, size: size, partitions: partitions, batchSize: batchSize, inFlight: inFlight,
                    logger: Logger(label: "herald.bench")
                ).report(rounds: rounds)
            }
        }
    }
}
