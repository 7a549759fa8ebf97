import Foundation
import HeraldKafka
import HeraldStages
import HeraldTestSupport
import Prometheus
import Testing

@testable import HeraldApp

/// `HeraldApp.buildRuntime` failing after it has made Kafka clients closes them: no service
/// owns them yet, so nothing else would.
@Suite("Runtime build: clients closed when a step fails", .timeLimit(.minutes(5)))
struct FailedBuildTests {
    @Test("a reader without a token key fails the build after the match and compose stages made their consumers; all are closed")
    func clientsClosedOnFailure() async throws {
        let fixture = try await PipelineFixture()
        var configuration = fixture.runtimeConfiguration([.match, .compose, .reader])
        configuration.tokenKey = nil
        let clients = BuildClients()
        await #expect(throws: HeraldAppError.self) {
            _ = try await HeraldApp.buildRuntime(
                configuration, environment: fixture.environment, catalog: fixture.catalog, logSink: nil,
                registry: PrometheusCollectorRegistry(), logger: fixture.logger, clients: clients)
        }
        let counts = clients.counts
        // The shared producer, the match stage's table loader and group consumer, compose's
        // users follower and group consumer: at least five.
        #expect(counts.closed >= 5, "closed \(counts.closed)")
        #expect(counts.open == 0)
    }

    @Test("a runtime built without a failure leaves its clients to its services")
    func clientsKeptOnSuccess() async throws {
        let fixture = try await PipelineFixture()
        let clients = BuildClients()
        let runtime = try await HeraldApp.buildRuntime(
            fixture.runtimeConfiguration([.match]), environment: fixture.environment, catalog: fixture.catalog, logSink: nil,
            registry: PrometheusCollectorRegistry(), logger: fixture.logger, clients: clients)
        #expect(clients.counts.open == 0 && clients.counts.closed == 0)
        // A client made after the build (a changelog restore's consumer) is not tracked.
        let later = clients.consumer(try fixture.consumer(group: "after-build"))
        #expect(clients.counts.open == 0)
        await later.close()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            // Shut down once started: a shutdown racing the services' start can cancel one
            // mid-start (a CancellationError from `run()`, once in CI).
            #expect(try await Wait.until(timeout: .seconds(120)) { runtime.readiness.isReady })
            await runtime.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
