import Foundation
import GRDB
import HeraldModel

extension NotificationStore {
    /// Enforces `retention.maxAge` on every stream in one write transaction: removes each
    /// stream's notifications up to its newest one created more than `maxAge` before
    /// `now` (advancing the pruned-through mark, so older tokens expire), and read marks
    /// that old whose notification is absent. Run it periodically (e.g. hourly).
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func prune(now: Date) async throws(ReaderError) -> PruneReport {
        let cutoff = cutoff(now)
        return try await writing("prune") { db in try StreamRetention.enforceAge(cutoff: cutoff, in: db) }
    }

    /// Row counts, for metrics (scans the tables).
    /// - Throws: `ReaderError` (`INTERNAL_ERROR`).
    public func stats() async throws(ReaderError) -> StoreStats {
        try await reading("stats", Self.stats(in:))
    }

    private func cutoff(_ now: Date) -> Int64 {
        EpochMilliseconds.of(now).subtractingReportingOverflow(retention.maxAgeMilliseconds).partialValue
    }

    @Sendable private static func stats(in db: Database) throws -> StoreStats {
        func count(_ table: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        }
        return StoreStats(
            notifications: try count(StoreSchema.notification), reads: try count(StoreSchema.read),
            streams: try count(StoreSchema.stream), offsets: try count(StoreSchema.consumedOffset))
    }
}
