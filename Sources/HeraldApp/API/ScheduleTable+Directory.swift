import HeraldAPI
import HeraldStages

/// The API lists schedules and checks the 64 limit against the table the `schedules`
/// follower fills.
extension ScheduleTable: ScheduleDirectory {}
