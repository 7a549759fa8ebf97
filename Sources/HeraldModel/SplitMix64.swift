/// SplitMix64: a small seeded random source, for runs that must repeat exactly (benchmark
/// data, the push stage's retry jitter, which a replayed batch must reproduce).
///
/// Hand-written rather than a library: the standard library has no seedable generator, and
/// these uses need spread, not cryptographic quality.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator seeded by a number.
    public init(seed: UInt64) { state = seed }

    /// A generator seeded by the FNV-1a hash of a string (for example an ID).
    public init(seed: String) {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        state = hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
