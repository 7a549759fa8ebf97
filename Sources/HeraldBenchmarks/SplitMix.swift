import HeraldModel

/// A seeded generator, so every run benchmarks the same data.
typealias SplitMix = SplitMix64
