import ArgumentParser
import Foundation
import HeraldModel
import HeraldScheduler

/// `herald schedule next`: when a scheduled notification (UILocalNotification) fires.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Scheduled notifications.", subcommands: [Next.self])

    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the next fire instants of a schedule as a JSON array of UTC ISO 8601 strings.",
            discussion: """
                The file holds a schedule as on the `schedules` topic; its scheduleID, container and \
                recipient may be left out. A region schedule has no fire instants: it prints [] and a \
                note on stderr. A once-schedule prints at most its fire date.
                """)

        @Option(help: ArgumentHelp("A JSON file holding the schedule.", valueName: "file"))
        var schedule: String

        @Option(help: ArgumentHelp("Print instants strictly after this one (ISO 8601 with Z or an offset).", valueName: "instant"))
        var after: String

        @Option(help: "How many instants to print (1…10000).")
        var count = 10

        @Option(help: ArgumentHelp("The user's current IANA time zone (default: the schedule's own).", valueName: "zone"))
        var timeZone: String?

        func run() async throws {
            try await reportingFailures {
                guard (1...10_000).contains(count) else { throw CommandFailure.invalidInput("--count must be within 1…10000") }
                let start: Int64
                switch try? ISO8601Instant.parse(after) {
                case .instant(let instant)?: start = instant
                default:
                    throw CommandFailure.invalidInput(
                        "--after: \"\(after)\" is not an ISO 8601 instant with Z or an offset (e.g. 2026-03-29T00:00:00Z)")
                }
                let zone = try timeZone.map { (identifier: String) throws -> TimeZone in
                    guard let zone = TimeZone(identifier: identifier) else {
                        throw CommandFailure.invalidInput("--time-zone: unknown time zone \"\(identifier)\"")
                    }
                    return zone
                }
                let schedule = try Self.readSchedule(schedule)
                if schedule.region != nil {
                    FileHandle.standardError.write(Data("note: a region schedule fires on region crossings, not on dates\n".utf8))
                } else if schedule.fireDate == nil {
                    FileHandle.standardError.write(Data("note: a schedule without a fireDate fires once, when it is scheduled\n".utf8))
                }
                let instants = Recurrence(schedule: schedule, userTimeZone: zone).occurrences(after: start, count: count)
                print(String(decoding: try WireCodec().encode(instants.map(ISO8601Instant.format)), as: UTF8.self))
            }
        }

        /// Reads the schedule file, supplying placeholder identifiers the file leaves out.
        static func readSchedule(_ path: String) throws -> Schedule {
            let data = try InputFile.read(path)
            let codec = WireCodec()
            do {
                guard case .object(var members) = try codec.decode(JSONValue.self, from: data) else {
                    return try codec.decode(Schedule.self, from: data)
                }
                for key in ["scheduleID", "container", "recipient"] where members[key] == nil {
                    members[key] = "cli"
                }
                return try codec.decode(Schedule.self, from: try codec.encode(JSONValue.object(members)))
            } catch {
                throw CommandFailure.invalidInput("invalid schedule: \(path): \(error)")
            }
        }
    }
}
