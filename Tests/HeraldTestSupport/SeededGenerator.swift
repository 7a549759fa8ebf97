import HeraldModel

/// SplitMix64: a small seeded generator, so random tests are deterministic and their
/// failures reproduce. The same seed gives the same sequence on every platform.
public typealias SeededGenerator = SplitMix64
