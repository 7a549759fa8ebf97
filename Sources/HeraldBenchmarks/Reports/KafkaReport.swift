import Foundation

/// What `herald bench kafka` measured: per path (produce, consume), the best rates of
/// HeraldKafka and of the raw librdkafka loop, how the per-round ratios spread, and the CPU
/// each spent per message.
public struct KafkaReport: BenchmarkReport {
    /// One path's figures.
    public struct Path: Sendable, Encodable {
        /// Messages per second, best of the rounds.
        public var raw: Double
        public var herald: Double
        /// Best HeraldKafka / best raw.
        public var bestRatio: Double
        /// HeraldKafka / raw of each round (the two ran back to back), in round order.
        public var roundRatios: [Double]
        /// The median of `roundRatios`.
        public var medianRatio: Double
        /// CPU microseconds (user + system, the whole process) per message, over all rounds.
        public var rawCPUMicroseconds: Double
        public var heraldCPUMicroseconds: Double
        /// Raw CPU per message / HeraldKafka's: HeraldKafka's messages per CPU-second relative
        /// to raw's, the figure a busy machine disturbs least.
        public var cpuRatio: Double
        /// Heap allocations per message (the whole process), over all rounds; `nil` without
        /// a preloaded allocation counter.
        public var rawAllocations: Double?
        public var heraldAllocations: Double?

        /// The figures of `result`'s rounds, `messages` messages each.
        public init(_ result: KafkaBenchmark.Result, messages: Int) {
            raw = result.raw.map(\.rate).max() ?? 0
            herald = result.herald.map(\.rate).max() ?? 0
            bestRatio = ratio(herald, raw)
            roundRatios = zip(result.herald, result.raw).map { ratio($0.rate, $1.rate) }
            let sorted = roundRatios.sorted()
            medianRatio = sorted.isEmpty ? 0 : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
            func cpuMicroseconds(_ samples: [KafkaBenchmark.Sample]) -> Double {
                samples.isEmpty ? 0 : samples.reduce(0) { $0 + $1.cpuSeconds } * 1e6 / Double(samples.count * messages)
            }
            rawCPUMicroseconds = cpuMicroseconds(result.raw)
            heraldCPUMicroseconds = cpuMicroseconds(result.herald)
            cpuRatio = ratio(rawCPUMicroseconds, heraldCPUMicroseconds)
            func allocations(_ samples: [KafkaBenchmark.Sample]) -> Double? {
                let counts = samples.compactMap(\.allocations)
                guard !counts.isEmpty, counts.count == samples.count else { return nil }
                return Double(counts.reduce(0, +)) / Double(counts.count * messages)
            }
            rawAllocations = allocations(result.raw)
            heraldAllocations = allocations(result.herald)
        }
    }

    public var messages: Int
    public var size: Int
    public var partitions: Int32
    public var rounds: Int
    public var produce: Path
    public var consume: Path

    /// A JSON key: `messages`, `size_bytes`, `partitions`, `rounds`, then per path (`produce_`,
    /// `consume_`): `raw_per_s`, `herald_per_s`, `ratio` (best / best), `ratio_median`,
    /// `round_ratios`, `raw_cpu_us`, `herald_cpu_us`, `cpu_ratio`, `raw_allocations`,
    /// `herald_allocations` (null without an allocation counter).
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A report of every round of both paths (`KafkaBenchmark.run(rounds:)`).
    public init(messages: Int, size: Int, partitions: Int32, produce: KafkaBenchmark.Result, consume: KafkaBenchmark.Result) {
        (self.messages, self.size, self.partitions) = (messages, size, partitions)
        rounds = max(produce.raw.count, consume.raw.count)
        self.produce = Path(produce, messages: messages)
        self.consume = Path(consume, messages: messages)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        func put(_ key: String, _ value: some Encodable) throws { try container.encode(value, forKey: Key(stringValue: key)) }
        try put("messages", messages)
        try put("size_bytes", size)
        try put("partitions", partitions)
        try put("rounds", rounds)
        for (name, path) in [("produce", produce), ("consume", consume)] {
            try put("\(name)_raw_per_s", path.raw)
            try put("\(name)_herald_per_s", path.herald)
            try put("\(name)_ratio", path.bestRatio)
            try put("\(name)_ratio_median", path.medianRatio)
            try put("\(name)_round_ratios", path.roundRatios)
            try put("\(name)_raw_cpu_us", path.rawCPUMicroseconds)
            try put("\(name)_herald_cpu_us", path.heraldCPUMicroseconds)
            try put("\(name)_cpu_ratio", path.cpuRatio)
            try put("\(name)_raw_allocations", path.rawAllocations)
            try put("\(name)_herald_allocations", path.heraldAllocations)
        }
    }

    public var table: String {
        func row(_ name: String, _ path: Path) -> String {
            let spread = path.roundRatios.isEmpty
                ? "–" : String(format: "%.2f–%.2f", path.roundRatios.min() ?? 0, path.roundRatios.max() ?? 0)
            func count(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
            return String(
                format: "| %@ | %11.0f | %14.0f | %10.2f | %6.2f | %@ | %10.2f | %13.2f | %9.2f | %@ |",
                name.padding(toLength: 7, withPad: " ", startingAt: 0), path.raw, path.herald, path.bestRatio,
                path.medianRatio, spread.padding(toLength: 9, withPad: " ", startingAt: 0), path.rawCPUMicroseconds,
                path.heraldCPUMicroseconds, path.cpuRatio,
                "\(count(path.rawAllocations)) / \(count(path.heraldAllocations))".padding(toLength: 23, withPad: " ", startingAt: 0))
        }
        return """
            Kafka throughput, embedded broker, \(messages) messages × \(size) B, \(partitions) partitions, \(rounds) rounds
            (raw and HeraldKafka back to back in alternating order; rates are the best round; CPU is the whole process's,
            broker included, per message over all rounds; CPU ratio = HeraldKafka's messages per CPU-second / raw's;
            allocations per message with LD_PRELOAD=…/libHeraldAllocationCounter.so, else –)

            | path    | raw (msg/s) | Herald (msg/s) | best ratio | median | rounds    | raw CPU µs | Herald CPU µs | CPU ratio | allocations raw / Herald |
            |---------|------------:|---------------:|-----------:|-------:|-----------|-----------:|--------------:|----------:|-------------------------|
            \(row("produce", produce))
            \(row("consume", consume))
            """
    }
}

extension KafkaBenchmark {
    /// Runs each path `rounds` times (`run(rounds:)`) and reports them.
    public func report(rounds: Int) async throws -> KafkaReport {
        let results = try await run(rounds: rounds)
        func path(_ name: String) -> Result { results.first { $0.path == name } ?? Result(path: name) }
        return KafkaReport(messages: messages, size: size, partitions: partitions, produce: path("produce"), consume: path("consume"))
    }
}
