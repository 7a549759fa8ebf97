import Foundation

/// What `herald bench kafka` measured: the best produce and consume rates of HeraldKafka and
/// of the raw librdkafka loop, and their ratios.
public struct KafkaReport: BenchmarkReport {
    public var messages: Int
    public var size: Int
    public var partitions: Int32
    public var rounds: Int
    /// Messages per second, best of `rounds`.
    public var produceRaw: Double
    public var produceHerald: Double
    public var consumeRaw: Double
    public var consumeHerald: Double
    /// HeraldKafka / raw.
    public var produceRatio: Double
    public var consumeRatio: Double

    enum CodingKeys: String, CodingKey {
        case messages, size = "size_bytes", partitions, rounds
        case produceRaw = "produce_raw_per_s", produceHerald = "produce_herald_per_s", produceRatio = "produce_ratio"
        case consumeRaw = "consume_raw_per_s", consumeHerald = "consume_herald_per_s", consumeRatio = "consume_ratio"
    }

    /// A report of the best rates; the ratios are computed from them.
    public init(
        messages: Int, size: Int, partitions: Int32, rounds: Int, produceRaw: Double, produceHerald: Double,
        consumeRaw: Double, consumeHerald: Double
    ) {
        (self.messages, self.size, self.partitions, self.rounds) = (messages, size, partitions, rounds)
        (self.produceRaw, self.produceHerald, self.consumeRaw, self.consumeHerald) = (produceRaw, produceHerald, consumeRaw, consumeHerald)
        produceRatio = ratio(produceHerald, produceRaw)
        consumeRatio = ratio(consumeHerald, consumeRaw)
    }

    public var table: String {
        func row(_ path: String, _ raw: Double, _ herald: Double) -> String {
            String(
                format: "| %@ | %22.0f | %19.0f | %16.1f%% |",
                path.padding(toLength: 7, withPad: " ", startingAt: 0), raw, herald, ratio(herald, raw) * 100)
        }
        return """
            Kafka throughput, embedded broker, \(messages) messages × \(size) B, \(partitions) partitions, best of \(rounds)

            | path    | raw librdkafka (msg/s) | HeraldKafka (msg/s) | HeraldKafka / raw |
            |---------|-----------------------:|--------------------:|------------------:|
            \(row("produce", produceRaw, produceHerald))
            \(row("consume", consumeRaw, consumeHerald))
            """
    }
}

extension KafkaBenchmark {
    /// Runs each path `rounds` times (`run(rounds:)`) and reports the best rates.
    public func report(rounds: Int) async throws -> KafkaReport {
        let results = try await run(rounds: rounds)
        func best(_ path: String) -> Result { results.first { $0.path == path } ?? Result(path: path, raw: 0, herald: 0) }
        let (produce, consume) = (best("produce"), best("consume"))
        return KafkaReport(
            messages: messages, size: size, partitions: partitions, rounds: rounds, produceRaw: produce.raw,
            produceHerald: produce.herald, consumeRaw: consume.raw, consumeHerald: consume.herald)
    }
}
