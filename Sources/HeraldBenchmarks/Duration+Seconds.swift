extension Duration {
    /// The duration in seconds, as the benchmarks' rates divide by.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in milliseconds, as the reports' latencies are given.
    var milliseconds: Double { seconds * 1000 }
}
