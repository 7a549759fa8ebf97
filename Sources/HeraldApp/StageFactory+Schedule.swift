import HeraldKafka
import HeraldStages
import ServiceLifecycle

extension StageFactory {
    /// The users directory (tracking time-zone changes), its follower, and the schedule
    /// stage runner.
    func makeSchedule() throws -> [any Service] {
        let users = UserDirectory(tracksTimeZones: true)
        let processor = ScheduleProcessor(
            context: context, users: users, tickInterval: configuration.scheduleTickInterval,
            maxInputBytes: configuration.maxInputBytes)
        return [try usersFollower("schedule.users", consumer: "schedule-users", into: users), try runner(.schedule, processor)]
    }

    /// The asset ledger stage runner (`record-changes` and `asset-refs` in one group).
    func makeAssets() throws -> [any Service] {
        var settings = AssetLedgerProcessor.Configuration()
        settings.gracePeriod = configuration.assetGracePeriod
        settings.maxInputBytes = configuration.maxInputBytes
        return [try runner(.assets, AssetLedgerProcessor(context: context, configuration: settings))]
    }
}
