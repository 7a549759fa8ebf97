import Synchronization

/// A bounded, thread-safe memo of ``PluralRules`` by locale identifier, so that rendering
/// does not reopen ICU's rules (a data lookup and allocation) for every string.
/// A class so that copies of a catalog share it; `Mutex` makes it `Sendable`.
final class PluralRulesCache: Sendable {
    /// Beyond this many locales the memo starts over (locales come from user data).
    static let capacity = 512
    private let rules = Mutex<[String: PluralRules]>([:])

    /// The rules for `locale`, opened on first use.
    func rules(for locale: String) -> PluralRules {
        if let cached = rules.withLock({ $0[locale] }) { return cached }
        // Opened outside the lock: two threads may both open the same locale once.
        let opened = PluralRules(localeIdentifier: locale)
        rules.withLock { rules in
            if rules.count >= Self.capacity { rules.removeAll(keepingCapacity: true) }
            rules[locale] = opened
        }
        return opened
    }
}
