import Metrics

/// The push stage's metrics, created once: pushes sent, failed by reason, retried, devices
/// pruned by cause, and the latency from a notification's composition to the provider's
/// acknowledgement.
struct PushMetrics: Sendable {
    let sent = Counter(label: "herald_push_sent_total")
    let retried = Counter(label: "herald_push_retried_total")
    let latency = Metrics.Timer(label: "herald_push_latency_seconds", preferredDisplayUnit: .seconds)

    /// `herald_push_failed_total{reason}`: the provider's reason (a closed set of Apple's and
    /// Google's codes) or `unreachable`, `retries_exhausted`, `expired`.
    func failed(_ reason: String) {
        Counter(label: "herald_push_failed_total", dimensions: [("reason", reason)]).increment()
    }

    /// `herald_push_devices_pruned_total{cause}`: `provider` (the token is gone) or `cap`
    /// (the user registered more devices than allowed).
    func pruned(_ cause: String, count: Int = 1) {
        Counter(label: "herald_push_devices_pruned_total", dimensions: [("cause", cause)]).increment(by: count)
    }
}
