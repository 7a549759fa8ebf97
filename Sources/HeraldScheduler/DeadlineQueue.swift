import HeapModule

/// The next deadline of every user of a partition, soonest first: the schedule stage
/// holds one per instance and asks it which users have schedules due.
///
/// Built on a min-heap with lazy deletion: updating or removing a user leaves their old
/// heap entry in place, and an entry is ignored when it no longer matches the user's
/// current deadline. The heap is rebuilt when stale entries outnumber live ones, so its
/// size stays proportional to the number of users. A value: the stage that owns it
/// mutates its own copy.
public struct DeadlineQueue: Sendable {
    private struct Entry: Comparable, Sendable {
        var deadline: Int64
        var recipient: String

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.recipient) < (rhs.deadline, rhs.recipient)
        }
    }

    private var heap = Heap<Entry>()
    private var deadlines: [String: Int64] = [:]

    /// An empty queue.
    public init() {}

    /// How many users have a deadline.
    public var count: Int { deadlines.count }

    /// The user's deadline, if any.
    public func deadline(for recipient: String) -> Int64? { deadlines[recipient] }

    /// The earliest deadline of any user.
    public var nextDeadline: Int64? { heap.min?.deadline }

    /// Sets (or, with `nil`, removes) a user's deadline, e.g. `UserSchedules.nextDeadline`.
    public mutating func update(_ recipient: String, deadline: Int64?) {
        guard deadlines[recipient] != deadline else { return }
        deadlines[recipient] = deadline
        if let deadline { heap.insert(Entry(deadline: deadline, recipient: recipient)) }
        settle()
    }

    /// Removes a user (their partition was revoked, or they have nothing timed left).
    public mutating func remove(_ recipient: String) {
        update(recipient, deadline: nil)
    }

    /// The users whose deadline is at or before `now`, soonest first, removed from the
    /// queue: the caller fires their schedules and sets their next deadline.
    public mutating func due(now: Int64) -> [String] {
        var recipients: [String] = []
        while let top = heap.min, top.deadline <= now {
            heap.removeMin()
            guard deadlines[top.recipient] == top.deadline else { continue }
            deadlines[top.recipient] = nil
            recipients.append(top.recipient)
        }
        settle()
        return recipients
    }

    /// Drops stale entries from the top, so `nextDeadline` is always live, and rebuilds
    /// the heap when it is mostly stale.
    private mutating func settle() {
        while let top = heap.min, deadlines[top.recipient] != top.deadline { heap.removeMin() }
        if heap.count > 2 * deadlines.count + 64 {
            heap = Heap(deadlines.map { Entry(deadline: $0.value, recipient: $0.key) })
        }
    }
}
