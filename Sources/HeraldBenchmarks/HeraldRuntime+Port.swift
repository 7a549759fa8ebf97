import HeraldApp

extension HeraldRuntime {
    /// The port this runtime's HTTP server listens on, once it does (within 30 s).
    /// - Throws: `BenchmarkError` when it does not start listening.
    func listeningPort() async throws -> Int {
        for _ in 0..<1_200 {
            if let port = httpPort { return port }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw BenchmarkError("the benchmark's HTTP server did not start")
    }
}
