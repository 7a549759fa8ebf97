import Foundation
import HeraldPipeline
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
}
