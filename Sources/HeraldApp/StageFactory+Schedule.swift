import HeraldKafka
import HeraldPipeline
import ServiceLifecycle

extension StageFactory {
    /// The users directory (tracking time-zone changes), its follower, and the schedule
    /// stage runner.
    func makeSchedule() throws -> [any Service] {
        let users = UserDirectory(tracksTimeZones: true)
        let processor = ScheduleProcessor(
            topics: .init(catalog), partitions: catalog.partitions, users: users,
            changelog: changelogReader(for: "schedule"), tickInterval: configuration.scheduleTickInterval,
            maxInputBytes: configuration.maxInputBytes, now: configuration.clock)
        return [try usersFollower("schedule.users", consumer: "schedule-users", into: users), try runner(.schedule, processor)]
    }

    /// The asset ledger stage runner (`record-changes` and `asset-refs` in one group).
    func makeAssets() throws -> [any Service] {
        var settings = AssetLedgerProcessor.Configuration()
        settings.gracePeriod = configuration.assetGracePeriod
        settings.maxInputBytes = configuration.maxInputBytes
        let processor = AssetLedgerProcessor(
            topics: .init(catalog), changelog: changelogReader(for: "assets"), configuration: settings,
            logger: logger, now: configuration.clock)
        return [try runner(.assets, processor)]
    }

    /// Reads a stage's changelog partitions on assignment, with a consumer of its own.
    func changelogReader(for stage: String) -> ChangelogReader {
        let factory = self
        return ChangelogReader { try factory.ungroupedConsumer("\(stage)-restore") }
    }
}
