import HeraldStages
import Prometheus

/// The metrics backend of a Herald process: Prometheus, with Hummingbird's HTTP metrics
/// (`MetricsMiddleware`) renamed into Herald's `herald_http_*` family.
public enum HeraldMetricsFactory {
    /// Hummingbird's metric labels and the names `/metrics` shows them under.
    public static let renamed: [String: String] = [
        "hb.requests": "herald_http_requests_total",
        "hb.request.errors": "herald_http_request_errors_total",
        "http.server.request.duration": "herald_http_request_duration_seconds",
        "http.server.active_requests": "herald_http_active_requests",
    ]

    /// The factory to pass to `MetricsSystem.bootstrap`, writing into `registry`.
    public static func make(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (renamed[name] ?? name, labels.map { ($0.0.replacingDots, $0.1) })
        }
        return factory
    }
}

extension String {
    /// `http.request.method` → `http_request_method`.
    fileprivate var replacingDots: String { String(map { $0 == "." ? "_" : $0 }) }
}
