import HeraldModel

/// Which reason a change gives a query subscription, and who sees a database change.
enum MatchRules {
    /// The query notification reason, or `nil` when the subscription does not fire.
    ///
    /// Create and update test the record after the change; delete tests the last stored
    /// version. With `previousFields`, a subscription that asks for `enter`/`leave` fires
    /// `recordEntered` when the record matches now but did not before, `recordLeft` for the
    /// reverse (docs/cloudkit-behaviour.md §1, Decision).
    /// - Parameter records: the change's records (`ChangeRecords(change)`, built once per change).
    static func reason(
        _ candidate: IndexedSubscription, _ change: RecordChange, _ records: ChangeRecords
    ) -> QueryNotificationReason? {
        let events = candidate.events
        switch change.kind {
        case .create:
            guard events.contains(.create), candidate.satisfied(by: records.after) else { return nil }
            return .recordCreated
        case .delete:
            guard events.contains(.delete), candidate.satisfied(by: records.after) else { return nil }
            return .recordDeleted
        case .update:
            let after = candidate.satisfied(by: records.after)
            if let previous = records.before, events.contains(.enter) || events.contains(.leave) {
                let before = candidate.satisfied(by: previous)
                if after && !before && events.contains(.enter) { return .recordEntered }
                if before && !after && events.contains(.leave) { return .recordLeft }
            }
            return after && events.contains(.update) ? .recordUpdated : nil
        }
    }

    /// Whether a candidate could fire for the change, from its first cache line alone (its
    /// `firesOn` bits and zone), before its predicate is evaluated: `reason` decides.
    static func mayFire(_ candidate: IndexedSubscription, on change: RecordChange) -> Bool {
        let wanted: IndexedSubscription.Events = switch change.kind {
        case .create: .create
        case .delete: .delete
        case .update: [.update, .enter, .leave]
        }
        return !candidate.events.isDisjoint(with: wanted) && watchesZone(candidate, of: change)
    }

    /// A query subscription limited to one zone sees only that zone's changes.
    static func watchesZone(_ candidate: IndexedSubscription, of change: RecordChange) -> Bool {
        candidate.zoneID.map { $0 == change.zoneID } ?? true
    }

    /// The owners whose database subscriptions see this change: in the private database the
    /// zone owner, except for the default zone; in the shared database every participant.
    static func databaseAudience(_ change: RecordChange) -> [String] {
        switch change.database {
        case .private: change.zoneID.isDefaultZone ? [] : [change.zoneID.ownerRecordName]
        case .shared: Array(Set(change.participants ?? [])).sorted()
        case .public: []
        }
    }
}
