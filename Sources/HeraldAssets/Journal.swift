/// What a ledger changed since its last commit, so that `rollback` can put it back: the
/// value each touched key had before its first change (`nil`: absent), and the watermark.
struct Journal<Value: Sendable>: Sendable {
    private(set) var previous: [String: Value?] = [:]
    private(set) var appliedThrough: Int64?
    private(set) var savedAppliedThrough = false

    /// Remembers `value` as the key's value before this batch, unless the key was already touched.
    mutating func remember(_ key: String, _ value: Value?) {
        guard previous.index(forKey: key) == nil else { return }
        previous.updateValue(value, forKey: key)
    }

    /// Remembers the watermark before this batch, unless it was already saved.
    mutating func remember(appliedThrough value: Int64?) {
        guard !savedAppliedThrough else { return }
        appliedThrough = value
        savedAppliedThrough = true
    }
}
