extension Duration {
    /// The duration in seconds, as the benchmarks' rates divide by.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
