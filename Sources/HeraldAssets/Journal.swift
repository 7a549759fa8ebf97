import HeraldModel

/// What a ledger changed since its last commit, so that `rollback` can put it back: the
/// value each touched key had before its first change (`nil`: absent), and the applied offsets.
struct Journal<Value: Sendable>: Sendable {
    private(set) var previous: [String: Value?] = [:]
    /// The applied offsets before this batch; `nil`: not changed since the last commit.
    private(set) var applied: AppliedOffsets?

    /// Remembers `value` as the key's value before this batch, unless the key was already touched.
    mutating func remember(_ key: String, _ value: Value?) {
        guard previous.index(forKey: key) == nil else { return }
        previous.updateValue(value, forKey: key)
    }

    /// Remembers the applied offsets before this batch, unless they were already saved.
    mutating func remember(applied value: AppliedOffsets) {
        guard applied == nil else { return }
        applied = value
    }
}
