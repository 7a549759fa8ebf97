import Foundation
import HeraldApp
import HeraldStages
import Testing

/// End-to-end tests build their process exactly as `herald run` does — with
/// `HeraldApp.buildRuntime` — on the fixture's embedded cluster and catalog, so the wiring
/// that ships is the wiring under test.
extension PipelineFixture {
    /// The token key of test runtimes' reader stores (hex, 32 bytes).
    public static let tokenKey = String(repeating: "ab", count: 32)
    /// The HS256 secret of test runtimes' API bearer tokens.
    public static let jwtSecret = String(repeating: "s", count: 40)

    /// A configuration for a runtime of `stages` on this fixture: HTTP on 127.0.0.1 with a
    /// port the system picks, no signal handling, the test secrets, and a shutdown that
    /// overruns its deadline records an issue instead of ending the test process.
    /// - Parameter dataDirectory: the reader store's directory; default: a new temporary
    ///   one (the caller removes it).
    public func runtimeConfiguration(_ stages: [HeraldStage], dataDirectory: String? = nil) -> HeraldConfiguration {
        let directory = dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("herald-test-\(UUID().uuidString)").path
        var configuration = HeraldConfiguration(
            instanceID: "test", dataDirectory: directory,
            tokenKey: .init(Self.tokenKey), jwtSecret: .init(Self.jwtSecret))
        configuration.stages = stages
        configuration.httpHost = "127.0.0.1"
        configuration.httpPort = 0
        configuration.handlesSignals = false
        configuration.exit = { code in Issue.record("the runtime's shutdown overran its deadline (it would have exited \(code))") }
        return configuration
    }

    /// Builds a runtime with `configuration` on this fixture's cluster and catalog, runs it
    /// while `body` runs, then shuts it down gracefully and waits until `run()` returned
    /// (also when `body` throws).
    /// - Parameter environment: how the runtime connects; default: the fixture's own (a test
    ///   that needs other client properties connects to the same cluster as
    ///   `herald run --brokers` does).
    /// - Returns: what `body` returned.
    @discardableResult
    public func withRuntime<T: Sendable>(
        _ configuration: HeraldConfiguration, environment: KafkaEnvironment? = nil, _ body: (HeraldRuntime) async throws -> T
    ) async throws -> T {
        let runtime = try await HeraldApp.buildRuntime(
            configuration, environment: environment ?? self.environment, catalog: catalog, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            let result: T
            do {
                result = try await body(runtime)
            } catch {
                await runtime.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
            await runtime.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        }
    }
}
