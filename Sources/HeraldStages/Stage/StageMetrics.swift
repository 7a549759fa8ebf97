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
    /// Outputs Kafka refused for themselves (too large, invalid), written as dead letters.
    let outputsRejected: Counter
    /// Dead letters written in the reduced form (value truncated or left out).
    let deadLettersReduced: Counter
    /// Dead letters that could not be written in any form (logged, then dropped).
    let deadLettersUnwritable: Counter
    /// Rounds of re-sending the messages of a delivery that failed transiently.
    let deliveryRetries: Counter
    /// Failed attempts to restore the state of assigned partitions (retried).
    let restoreFailures: Counter
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
        outputsRejected = Counter(label: "herald_stage_outputs_rejected_total", dimensions: dimensions)
        deadLettersReduced = Counter(label: "herald_stage_dead_letters_reduced_total", dimensions: dimensions)
        deadLettersUnwritable = Counter(label: "herald_stage_dead_letters_unwritable_total", dimensions: dimensions)
        deliveryRetries = Counter(label: "herald_stage_delivery_retries_total", dimensions: dimensions)
        restoreFailures = Counter(label: "herald_stage_restore_failures_total", dimensions: dimensions)
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
