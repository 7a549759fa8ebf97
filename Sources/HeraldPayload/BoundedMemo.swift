import Synchronization

/// A bounded, thread-safe memo shared by copies of the value that holds it (a class; `Mutex`
/// makes it `Sendable`): the catalog's fallback chains by locale, the composer's payload
/// templates by subscription. Keys come from user data, so beyond `capacity` entries it
/// starts over rather than grow without end; what it holds is always recomputable.
final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most entries kept (at least 1).
    let capacity: Int
    private let entries = Mutex<[Key: Value]>([:])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries held now.
    var count: Int { entries.withLock { $0.count } }

    subscript(key: Key) -> Value? {
        entries.withLock { $0[key] }
    }

    /// Keeps `value` for `key`, first forgetting everything when a new key would exceed the bound.
    func store(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }
}
