import HeraldKafka
import Metrics

/// A stage's metrics, created once per stage (the label is the stage name; the lag gauge
/// adds topic and partition).
struct StageMetrics: Sendable {
    let stage: String
    let consumed: Counter
    let produced: Counter
    let deadLettered: Counter
    let dataLoss: Counter
    let errors: Counter
    let retries: Counter
    let batchDuration: Metrics.Timer

    init(stage: String) {
        self.stage = stage
        let dimensions = [("stage", stage)]
        consumed = Counter(label: "herald_stage_messages_consumed_total", dimensions: dimensions)
        produced = Counter(label: "herald_stage_messages_produced_total", dimensions: dimensions)
        deadLettered = Counter(label: "herald_stage_dead_letters_total", dimensions: dimensions)
        dataLoss = Counter(label: "herald_stage_offset_out_of_range_total", dimensions: dimensions)
        errors = Counter(label: "herald_stage_consumer_errors_total", dimensions: dimensions)
        retries = Counter(label: "herald_stage_batch_retries_total", dimensions: dimensions)
        batchDuration = Metrics.Timer(label: "herald_stage_batch_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds)
    }
}

extension StageMetrics {
    /// Sets `herald_consumer_lag{stage, topic, partition}` for each partition of a
    /// delivered batch: the high watermark librdkafka last saw for the partition (no broker
    /// call) minus the next offset to read. An idle partition keeps its last value.
    func recordLag(after batch: [ConsumedMessage], consumer: KafkaConsumer) {
        for next in batch.nextOffsets {
            guard let high = consumer.cachedHighWatermark(next.topicPartition) else { continue }
            Gauge(label: "herald_consumer_lag", dimensions: [
                ("stage", stage), ("topic", next.topicPartition.topic), ("partition", String(next.topicPartition.partition)),
            ]).record(max(0, high - next.offset.rawValue))
        }
    }
}

extension Metrics.Timer {
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
