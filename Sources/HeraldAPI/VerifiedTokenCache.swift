import Foundation
import Synchronization

/// Bearer tokens that already verified, with the caller each one names: a client sends the
/// same token with every request, and verifying it (base64, JSON, HMAC through jwt-kit's
/// actor) costs more than the page query it guards.
///
/// Keyed by the whole token text, signature included, so only the exact bytes that verified
/// hit. A hit is still checked against the clock (`Caller.expiresAt`): an expired token is
/// refused and dropped as if it had never been seen. Bounded: when `capacity` tokens are held
/// the oldest half is dropped (tokens are short-lived; the next request re-verifies).
final class VerifiedTokenCache: Sendable {
    /// Tokens held at most. Default 8,192 (about 1 MB with typical tokens).
    let capacity: Int
    private let entries = Mutex<(callers: [String: Caller], order: [String])>(([:], []))

    init(capacity: Int = 8_192) {
        precondition(capacity > 1, "a token cache holds at least two tokens")
        self.capacity = capacity
    }

    /// The caller `token` named when it verified, if it is held and not expired at `now`.
    func caller(for token: String, now: Date) -> Caller? {
        entries.withLock { entries in
            guard let caller = entries.callers[token] else { return nil }
            guard now < caller.expiresAt else {
                entries.callers[token] = nil
                return nil
            }
            return caller
        }
    }

    /// Remembers that `token` verified as `caller`.
    func insert(_ token: String, caller: Caller) {
        entries.withLock { entries in
            guard entries.callers.updateValue(caller, forKey: token) == nil else { return }
            entries.order.append(token)
            guard entries.order.count > capacity else { return }
            let dropped = entries.order.prefix(entries.order.count - capacity / 2)
            for old in dropped { entries.callers[old] = nil }
            entries.order.removeFirst(dropped.count)
        }
    }

    /// Tokens held now (expired ones not yet seen again included).
    var count: Int { entries.withLock { $0.callers.count } }
}
