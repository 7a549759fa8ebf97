/// The `# HELP` text of Herald's metrics. swift-metrics has no help text, and the
/// Prometheus registry refuses one metric name with two help texts, so `/metrics` adds
/// these lines when it renders the registry (`annotate`), before each metric's `# TYPE`.
public enum MetricHelp {
    /// Help text by metric name.
    public static let texts: [String: String] = [
        "herald_log_lines_dropped_total":
            "Log lines dropped because the buffer to the logs topic was full or could not be shipped.",
        "herald_stage_messages_consumed_total": "Messages a stage consumed, by stage.",
        "herald_stage_messages_produced_total": "Messages a stage produced, by stage.",
        "herald_stage_dead_letters_total": "Inputs a stage sent to the dead-letters topic, by stage.",
        "herald_stage_offset_out_of_range_total":
            "Times a stage's committed offset was no longer retained (data skipped), by stage.",
        "herald_stage_consumer_errors_total": "Consumer errors a stage met, by stage.",
        "herald_stage_batch_retries_total": "Batches a stage retried after a failure, by stage.",
        "herald_stage_batch_seconds": "Time a stage took to process one batch, by stage.",
        "herald_consumer_lag":
            "Messages of a partition not yet consumed by a stage (high watermark minus position), by stage, topic and partition.",
        "herald_push_sent_total": "Pushes a provider (APNs, FCM) accepted.",
        "herald_push_failed_total":
            "Pushes a provider refused or that failed, by reason (the provider's reason, unreachable, retries_exhausted, expired, credentials).",
        "herald_push_retried_total": "Pushes put back for another attempt (429, 5xx, unreachable).",
        "herald_push_devices_pruned_total": "Devices removed, by cause: provider (token gone) or cap (too many per user).",
        "herald_push_latency_seconds": "Time from a notification's composition to the provider's acknowledgement of its push.",
        "herald_http_requests_total": "HTTP requests answered, by route (endpoint), method and status.",
        "herald_http_request_errors_total":
            "HTTP requests that failed outside a handler (no route, a framework error), by route, method and status.",
        "herald_http_request_duration_seconds": "HTTP request duration until the body is written, by route, method and status.",
        "herald_http_active_requests": "HTTP requests being answered, by method.",
    ]

    /// The Prometheus text `exposition` with a `# HELP` line before each `# TYPE` line of a
    /// metric in `texts` that has none.
    public static func annotate(_ exposition: String, texts: [String: String] = texts) -> String {
        var out = ""
        out.reserveCapacity(exposition.utf8.count + 1024)
        var previous = ""
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), !previous.hasPrefix("# HELP ") {
                let name = line.dropFirst("# TYPE ".count).prefix { $0 != " " }
                if let help = texts[String(name)] { out += "# HELP \(name) \(help)\n" }
            }
            out += line
            out += "\n"
            previous = String(line)
        }
        return String(out.dropLast())
    }
}
