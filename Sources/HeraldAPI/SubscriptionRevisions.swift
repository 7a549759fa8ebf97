import Foundation
import Synchronization

/// Gives each saved subscription its revision (`Subscription.revision`): the save time in
/// microseconds since 1970, strictly increasing within the process, so two saves in one
/// microsecond or across a clock set back still differ. Saves of one key through two API
/// instances differ unless they fall in the same microsecond.
final class SubscriptionRevisions: Sendable {
    private let clock: APIClock
    private let last = Mutex<Int64>(0)

    init(clock: APIClock) {
        self.clock = clock
    }

    /// The next revision: the clock's microseconds, or one more than the last if that is not later.
    func next() -> Int64 {
        let now = Int64((clock.now().timeIntervalSince1970 * 1_000_000).rounded(.down))
        return last.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }
}
