/// When a subscription earns a payload template (``PayloadTemplates``).
public enum TemplateAdmission: Sendable {
    /// On its first notification (the tests that compare the template path with the direct one).
    case firstNotification
    /// On its second notification while still remembered as seen (``SightingFilter``): a
    /// subscription that fires once in a while is composed directly, which costs less than
    /// making a template that is forgotten before it is used again.
    case secondNotification
}

/// Which template keys were seen lately: a fixed table of their hash values, one slot per
/// hash, a newer key overwriting an older one in its slot ("seen" can be forgotten, and a
/// 64-bit hash collision can pass as seen; both only decide when a template is made, never
/// what a payload holds).
///
/// Measured (`herald bench pipeline`, 10k subscriptions each firing in turn): with a
/// template made on every first notification, the memo of 4,096 started over all the time
/// and compose spent ~80% of its time making templates used once (perf: 4.6% of the whole
/// process against 0.3% writing payloads from them). Hand-written: a doorkeeper of this size
/// is a dozen lines, and no package here offers one.
struct SightingFilter: Sendable {
    private var slots: [Int]

    /// A filter of `slots` slots (rounded up to a power of two, at least 64).
    init(slots: Int) {
        var count = 64
        while count < slots { count *= 2 }
        self.slots = Array(repeating: 0, count: count)
    }

    /// Whether `hash` was recorded before (since its slot last changed); records it.
    mutating func sawBefore(_ hash: Int) -> Bool {
        let slot = Int(UInt(bitPattern: hash) & UInt(slots.count - 1))
        if slots[slot] == hash { return true }
        slots[slot] = hash
        return false
    }
}
