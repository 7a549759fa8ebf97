import Foundation
import FuzzSupport
import HeraldModel
import HeraldScheduler

/// Where the fuzzed schedules' occurrences are searched from (2026-11-22), and the zones
/// of a user they are read in (none: the schedule's own).
private let now: Int64 = 1_795_300_000_000
private let userZones: [TimeZone?] = [nil, TimeZone(identifier: "Pacific/Kiritimati"), TimeZone(identifier: "America/St_Johns")]

/// libFuzzer entry: the input is the JSON of a schedule (the API's and `herald schedule`'s
/// body); see `WireRoundTrip`. One that decodes goes through the scheduler's search: its
/// next occurrences, the latest before now, and single occurrences by index.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchedule(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let schedule = WireRoundTrip.check(Schedule.self, FuzzInput.data(data, size)) else { return 0 }
    for zone in userZones {
        let recurrence = Recurrence(schedule: schedule, userTimeZone: zone)
        let upcoming = recurrence.occurrences(after: now, count: 3)
        guard upcoming == upcoming.sorted(), Set(upcoming).count == upcoming.count else {
            fatalError("occurrences out of order or repeated: \(upcoming)")
        }
        _ = recurrence.latestOccurrence(atOrBefore: now)
        for index in [0, 1, 1_000, Int.max] { _ = recurrence.occurrence(index) }
    }
    return 0
}

@main
enum ScheduleFuzzer {
    static func main() { FuzzerDriver.run(fuzzSchedule) }
}
