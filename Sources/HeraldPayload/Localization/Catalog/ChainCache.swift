import Synchronization

/// A bounded, thread-safe memo of fallback chains by requested locale: there are few
/// distinct locales, and computing a chain costs more than rendering a short string.
/// A class so that copies of a catalog share it; `Mutex` makes it `Sendable`.
final class ChainCache: Sendable {
    /// Beyond this many locales the memo starts over (locales come from user data).
    static let capacity = 512
    private let chains = Mutex<[String: [String]]>([:])

    func chain(for locale: String) -> [String]? {
        chains.withLock { $0[locale] }
    }

    func store(_ chain: [String], for locale: String) {
        chains.withLock { chains in
            if chains.count >= Self.capacity { chains.removeAll(keepingCapacity: true) }
            chains[locale] = chain
        }
    }
}
