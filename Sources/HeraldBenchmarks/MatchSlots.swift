import HeraldModel

/// The matches a benchmark cycles through, each lent to the code measured as the compose
/// stage holds its decoded match: owned by the caller, passed without a copy.
///
/// Reading an element of an array (or of a buffer pointer, or a `let` of a class) to pass it
/// to a function of another module copies the whole `Match` — every string and dictionary of
/// its subscription and change retained, then released (2% of `herald bench payload`'s
/// samples in perf) — which the stage, owning the match it decoded, never does. Here the
/// match is moved out of its slot for the call and moved back after it.
final class MatchSlots {
    private let slots: UnsafeMutableBufferPointer<Match>

    /// Holds copies of `matches` (at least one).
    init(_ matches: [Match]) {
        precondition(!matches.isEmpty, "MatchSlots: no matches")
        slots = .allocate(capacity: matches.count)
        _ = slots.initialize(from: matches)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    /// Calls `body` with match `number` (cycling through them); not reentrant.
    func withMatch<R>(_ number: Int, _ body: (Match) throws -> R) rethrows -> R {
        let slot = slots.baseAddress.unsafelyUnwrapped + number % slots.count
        let match = slot.move()
        defer { slot.initialize(to: consume match) }
        return try body(match)
    }
}
