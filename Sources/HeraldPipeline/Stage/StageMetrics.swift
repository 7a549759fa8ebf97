import Metrics

/// A stage's metrics, created once per stage (the only label is the stage name).
struct StageMetrics: Sendable {
    let consumed: Counter
    let produced: Counter
    let deadLettered: Counter
    let dataLoss: Counter
    let errors: Counter
    let retries: Counter
    let batchDuration: Metrics.Timer

    init(stage: String) {
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

extension Metrics.Timer {
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
