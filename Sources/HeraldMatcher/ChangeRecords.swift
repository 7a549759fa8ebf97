import HeraldModel
import HeraldPredicate

/// A change's record as the compiled predicates read it — after the change, and before it
/// when the change carries `previousFields` — built once per change rather than once per
/// candidate (each build copies the record's names and retains its fields).
struct ChangeRecords {
    let after: PredicateRecord
    let before: PredicateRecord?

    init(_ change: RecordChange) {
        after = Self.record(change, fields: change.fields)
        before = change.previousFields.map { Self.record(change, fields: $0) }
    }

    /// The record with `fields` and the change's metadata.
    static func record(_ change: RecordChange, fields: [String: FieldValue]) -> PredicateRecord {
        PredicateRecord(
            recordName: change.recordName, recordType: change.recordType, fields: fields,
            creationDate: change.creationDate, modificationDate: change.timestamp,
            createdBy: change.createdBy, modifiedBy: change.modifiedBy)
    }
}
