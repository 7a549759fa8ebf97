import Foundation
import HeraldApp
import HeraldStages
import Hummingbird
import HummingbirdTesting
import Metrics
import Prometheus
import Testing

@Suite("Health and metrics endpoints")
struct OperationsRoutesTests {
    @Test("live always; ready only when every condition holds; metrics in Prometheus text")
    func healthAndMetrics() async throws {
        let readiness = Readiness()
        readiness.register("stage.match")
        let registry = PrometheusCollectorRegistry()
        registry.makeCounter(descriptor: MetricNameDescriptor(namespace: "herald", metricName: "test", unitName: "total", helpText: "a test counter")).increment(by: Int64(3))
        let router = Router()
        OperationsRoutes.add(to: router, readiness: readiness, registry: registry)
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("stage.match"))
            }
            readiness.set("stage.match", ready: true)
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("herald_test_total 3"))
            }
        }
    }

    @Test("another method on an operations route is 405 with Allow: GET", arguments: ["/metrics", "/health/live", "/health/ready"])
    func methodNotAllowed(path: String) async throws {
        let router = Router()
        OperationsRoutes.add(to: router, readiness: Readiness(), registry: PrometheusCollectorRegistry())
        try await Application(router: router).test(.router) { client in
            for method: HTTPRequest.Method in [.post, .options, .delete, .trace] {
                let response = try await client.execute(uri: path, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == "GET")
            }
        }
    }
}
