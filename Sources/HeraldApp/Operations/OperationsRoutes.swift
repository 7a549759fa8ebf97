import Foundation
import HeraldStages
import Hummingbird
import Prometheus

/// `/health/live`, `/health/ready` and `/metrics` on any Hummingbird router.
public enum OperationsRoutes {
    /// Adds the routes (GET only: other methods throw 405 with `Allow: GET`, which
    /// `ErrorBodyMiddleware` answers as the JSON error body).
    /// - Parameters:
    ///   - readiness: `/health/ready` answers 200 when every condition holds, else 503 listing them
    ///     (and, under `reasons`, why, where a condition said).
    ///   - registry: rendered at `/metrics` in the Prometheus text format, with `# HELP`
    ///     lines from `MetricHelp`.
    public static func add<Context: RequestContext>(
        to router: Router<Context>, readiness: Readiness, registry: PrometheusCollectorRegistry
    ) {
        router.get("/health/live") { _, _ in
            jsonResponse(.ok, ["status": "live"])
        }
        router.get("/health/ready") { _, _ in
            let conditions = readiness.conditions
            let ready = conditions.values.allSatisfy { $0 }
            var body: [String: Any] = ["status": ready ? "ready" : "not ready"]
            body["conditions"] = conditions
            let reasons = readiness.reasons
            if !reasons.isEmpty { body["reasons"] = reasons }
            return jsonResponse(ready ? .ok : .serviceUnavailable, body)
        }
        for path in ["/health/live", "/health/ready", "/metrics"] {
            for method: HTTPRequest.Method in [.post, .put, .delete, .patch, .options, .trace, HTTPRequest.Method("QUERY")!] {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw HTTPError(.methodNotAllowed, headers: [.allow: "GET"], message: "\(method.rawValue) is not allowed here; use GET")
                }
            }
        }
        router.get("/metrics") { _, _ in
            var bytes: [UInt8] = []
            registry.emit(into: &bytes)
            let text = MetricHelp.annotate(String(decoding: bytes, as: UTF8.self))
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    static func jsonResponse(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
