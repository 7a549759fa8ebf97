import HeraldKafka
import HeraldStages

/// The pipeline benchmark's simplest baseline: `changes` record changes produced first,
/// then consumed and produced once to another topic, acknowledged — Kafka's own ceiling
/// for one hop. Timed from the first message consumed to the last one acknowledged.
struct OneHopPassThrough {
    let benchmark: PipelineBenchmark
    let environment: KafkaEnvironment
    let counter: AllocationCounter?

    func run() async throws -> PipelineReport.Path {
        let settings = benchmark.settings
        let catalog = TopicCatalog(prefix: "pass.", partitions: settings.partitions)
        _ = try await environment.ensureTopics(catalog)
        let producer = try KafkaProducer(
            configuration: environment.producerConfiguration(clientID: "bench-pass"), logger: benchmark.logger)
        let input = catalog.name(TopicCatalog.recordChanges)
        for start in stride(from: 0, to: settings.changes, by: 5_000) {
            _ = try await producer.send((start..<min(settings.changes, start + 5_000)).map {
                benchmark.changeMessage($0, topic: input)
            })
        }
        let hop = RelayHop(
            name: "bench-pass", input: input, output: .topic(catalog.name(TopicCatalog.matches), replacements: []),
            partitions: settings.partitions, environment: environment, producer: producer, logger: benchmark.logger)
        let before = ResourceUsage.now(counter)
        let started = try await hop.run(count: settings.changes)
        let elapsed = started.duration(to: .now)
        let used = ResourceUsage.now(counter).since(before)
        await producer.close()
        return PipelineReport.Path(
            changesPerSecond: Double(settings.changes) / elapsed.seconds,
            cpuMicrosecondsPerChange: used.cpuMicroseconds(per: settings.changes),
            allocationsPerChange: used.allocations(per: settings.changes), latency: nil)
    }
}
