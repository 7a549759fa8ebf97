/// Which of a user's notifications the push stage has handled, by their stream `sequence`
/// (compose numbers each user's notifications 1, 2, 3, … and gives a notification written
/// again — compose redoing a batch after a crash — the same number): every sequence up to
/// `through`, plus the ones in `above`. A notification already handled is a copy and is not
/// pushed again.
///
/// Normally notifications arrive in sequence order and this is one number. A notification
/// whose first write failed and was re-sent after later ones arrives late: its sequence is a
/// gap below `above`, so it is not taken for a copy. `above` keeps at most `limit`
/// sequences; past it the oldest marks are forgotten (a copy of those would be pushed again,
/// as the 64 notification IDs kept before this type were), never a gap (a late notification
/// is never dropped).
///
/// Before this type, the push stage kept the IDs of the user's last 64 notifications: about
/// 2.5 KB of each user's `push-state` record, written after every batch that pushed to the
/// user (`herald bench push`: ~3 KB of changelog per push).
public struct HandledSequences: Sendable, Hashable, Codable {
    /// Every sequence up to this one is handled; nil: none seen yet.
    public private(set) var through: Int64?
    /// Handled sequences above `through + 1`, ascending.
    public private(set) var above: [Int64] = []

    /// Most sequences `above` keeps.
    public static let limit = 64

    public init() {}

    /// Whether the notification numbered `sequence` was handled.
    public func contains(_ sequence: Int64) -> Bool {
        guard let through else { return false }
        return sequence <= through || above.contains(sequence)
    }

    /// Marks `sequence` handled. The first sequence marked also stands for every one before
    /// it: notifications composed before the user had state here are not theirs to push.
    /// - Returns: whether it was not marked yet.
    @discardableResult
    public mutating func insert(_ sequence: Int64) -> Bool {
        guard let through else {
            self.through = sequence
            return true
        }
        guard sequence > through, !above.contains(sequence) else { return false }
        guard sequence == through + 1 else {
            above.insert(sequence, at: above.firstIndex { $0 > sequence } ?? above.endIndex)
            if above.count > Self.limit { above.removeFirst(above.count - Self.limit) }
            return true
        }
        var next = sequence
        var joined = 0
        while joined < above.count, above[joined] == next + 1 {
            next += 1
            joined += 1
        }
        above.removeFirst(joined)
        self.through = next
        return true
    }
}
