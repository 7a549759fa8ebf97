import HeraldModel

extension MatchRules {
    /// Why `reason(_:_:)` gives a query subscription no reason for the change, from the same
    /// `firesOn` bits and compiled predicate: a `firesOn` or predicate miss, or `nil` when
    /// neither explains it.
    /// - Parameter predicate: the predicate as written in the sentence, e.g. `` `priority >= 3` ``.
    static func miss(_ candidate: IndexedSubscription, _ change: RecordChange, predicate: String) -> FiringMiss? {
        let events = candidate.events
        let firesOn = "firesOn [\(candidate.firesOn.map(\.rawValue).joined(separator: ", "))]"
        let after = candidate.satisfied(by: change.fields, of: change)
        switch change.kind {
        case .create, .delete:
            let event: Subscription.Event = change.kind == .create ? .create : .delete
            if !events.contains(IndexedSubscription.Events([event])) {
                return FiringMiss(.firesOn, "firesOn: \(firesOn) does not include \(event.rawValue)")
            }
            if !after {
                let record = change.kind == .create ? "created" : "deleted (its last stored version)"
                return FiringMiss(.predicate, "predicate: \(predicate) is false for the record \(record)")
            }
        case .update:
            let wantsTransitions = events.contains(.enter) || events.contains(.leave)
            if !events.contains(.update) && !wantsTransitions {
                return FiringMiss(.firesOn, "firesOn: \(firesOn) does not include update (nor enter/leave)")
            }
            if !events.contains(.update), change.previousFields == nil {
                return FiringMiss(
                    .firesOn, "firesOn: \(firesOn) has enter/leave but not update, and the change carries no previousFields")
            }
            let before = change.previousFields.map { candidate.satisfied(by: $0, of: change) }
            switch (before, after) {
            case (_, false) where !wantsTransitions || before != true:
                return FiringMiss(
                    .predicate,
                    "predicate: \(predicate) is false for the record after the update" + (before == false ? " (and before it)" : ""))
            case (true?, false):
                return FiringMiss(
                    .firesOn,
                    "firesOn: the record left the results (the predicate \(predicate) was true before the update, false after) but \(firesOn) does not include leave")
            case (false?, true):
                return FiringMiss(
                    .firesOn,
                    "firesOn: the record entered the results (the predicate \(predicate) was false before the update, true after) but \(firesOn) includes neither update nor enter")
            case (_, true) where !events.contains(.update):
                return FiringMiss(
                    .firesOn,
                    "firesOn: the predicate \(predicate) holds before and after the update but \(firesOn) does not include update")
            default:
                break
            }
        }
        return nil
    }
}
