import Foundation
import HeraldModel
import HeraldPayload
import HeraldScheduler
import Hummingbird

extension HeraldAPI {
    /// `GET schedules`: the caller's pending schedules in the container, soonest first
    /// (by `nextFireDate`), region schedules last, ties by ID.
    func listSchedules(caller: Caller) throws -> Response {
        let now = nowMilliseconds
        let views = ownSchedules(caller)
            .map { (rank: Self.rank($0, now: now), schedule: $0) }
            .sorted { $0.rank < $1.rank }
            .map { ScheduleView(schedule: $0.schedule, nextFireDate: $0.rank.instant) }
        return try Self.jsonResponse(.ok, ScheduleList(schedules: views))
    }

    /// `GET schedules/{id}`: the schedule and its `nextFireDate`; 404 when absent (or
    /// another user's: the key holds the caller).
    func getSchedule<Context: RequestContext>(_ context: Context, caller: Caller) throws -> Response {
        let schedule = try ownedSchedule(context, caller: caller)
        let view = ScheduleView(schedule: schedule, nextFireDate: Self.rank(schedule, now: nowMilliseconds).instant)
        return try Self.jsonResponse(.ok, view)
    }

    /// `DELETE schedules/{id}`: publishes the tombstone; 404 when absent. Pending firings
    /// stop when the schedule stage consumes it.
    func deleteSchedule<Context: RequestContext>(_ context: Context, caller: Caller) async throws -> Response {
        let schedule = try ownedSchedule(context, caller: caller)
        try await publishing("schedule deletion") { try await publisher.deleteSchedule(schedule) }
        return try Self.jsonResponse(.ok, DeletedSchedule(scheduleID: schedule.scheduleID, deleted: true))
    }

    /// `POST schedules`: completes the body, validates it, applies the 64 limit, publishes,
    /// and answers 201 `{"schedule": <as stored, plus nextFireDate>, "discarded": [IDs]}`.
    ///
    /// - `container` and `recipient` may be omitted; when given they must equal the path's
    ///   and the token's (`BAD_REQUEST`). `scheduleID` absent: a new lower-case UUID; an ID
    ///   the caller already uses replaces that schedule. `createdAt` is the server's `now`
    ///   and refused in the body (`BAD_REQUEST`).
    /// - Malformed JSON or a value of the wrong JSON type: `BAD_REQUEST`; well-typed but not
    ///   a valid schedule (a fire date and a region, a repeat under a minute, an unknown zone,
    ///   `null` or `aps` in `userInfo`, a push too large even pruned…): `INVALID_SCHEDULE`;
    ///   the reason leads with the JSON path.
    /// - The limit: of the caller's pending schedules in the container with this one, the
    ///   `PendingLimit.capacity` that fire soonest are kept, each ranked in its own time
    ///   zone (the API does not know the user's current one; the schedule stage applies the
    ///   limit again with it and is authoritative). This one is published unless it is itself
    ///   discarded; the other discarded ones get tombstones.
    func saveSchedule(_ request: Request, caller: Caller) async throws -> Response {
        let body = try await decodeBody(JSONValue.self, from: request)
        guard case .object(var members) = body else {
            throw APIError(.badRequest, "the body must be a JSON object (a schedule), got \(body.kindDescription)")
        }
        if let createdAt = members["createdAt"], createdAt != .null {
            throw APIError(.badRequest, "createdAt: set by the server when it accepts the schedule; leave it out")
        }
        try Self.complete(&members, with: [
            ("container", caller.container, "the path"), ("recipient", caller.user, "the bearer token"),
        ])
        if members["scheduleID"] == nil || members["scheduleID"] == .null {
            members["scheduleID"] = .string(UUID().uuidString.lowercased())
        }
        let now = nowMilliseconds
        members["createdAt"] = .integer(now)
        let schedule = try Self.decodeSchedule(.object(members))
        try Self.checkContent(schedule)
        try Self.checkPayload(schedule, now: now)

        let others = ownSchedules(caller).filter { $0.scheduleID != schedule.scheduleID }
        let discarded = PendingLimit.partition(others + [schedule]) { Self.rank($0, now: now) }.discarded
        var tombstones = discarded.filter { $0.scheduleID != schedule.scheduleID }
        if discarded.count > tombstones.count {
            // Discarded on arrival: the version it would have replaced goes too.
            if let replaced = schedules.schedule(forKey: schedule.partitionKey) { tombstones.append(replaced) }
        } else {
            try await publishing("schedule") { try await publisher.publish(schedule: schedule) }
        }
        for stale in tombstones {
            try await publishing("discarded schedule") { try await publisher.deleteSchedule(stale) }
        }
        let view = ScheduleView(schedule: schedule, nextFireDate: Self.rank(schedule, now: now).instant)
        return try Self.jsonResponse(.created, SavedSchedule(schedule: view, discarded: discarded.map(\.scheduleID)))
    }

    /// Where `schedule` ranks for the 64 limit and the listing at `now`, in its own zone.
    ///
    /// `PendingLimit.rank`, except that a repeating schedule whose fire date had passed when
    /// it was accepted ranks by its next repeat once that acceptance is past: it fired
    /// immediately then (`createdAt`), and only its repeats are still to come.
    static func rank(_ schedule: Schedule, now: Int64) -> PendingLimit.Rank {
        var rank = PendingLimit.rank(schedule, now: now, userTimeZone: nil)
        if schedule.repeatInterval != nil, let fireDate = schedule.fireDate, fireDate <= now,
            (schedule.createdAt ?? .min) < now
        {
            rank.instant = Recurrence(schedule: schedule, userTimeZone: nil).next(after: now) ?? now
        }
        return rank
    }

    /// The caller's pending schedules in the token's container.
    private func ownSchedules(_ caller: Caller) -> [Schedule] {
        schedules.schedules(recipient: caller.user, container: caller.container)
            .filter { $0.recipient == caller.user && $0.container == caller.container }
    }

    /// The schedule of the path, if the caller has it.
    /// - Throws: `APIError` (`NOT_FOUND`).
    private func ownedSchedule<Context: RequestContext>(_ context: Context, caller: Caller) throws(APIError) -> Schedule {
        let id = try Self.pathParameter("scheduleID", context)
        guard let schedule = schedules.schedule(forKey: "\(caller.container)/\(caller.user)/\(id)"),
            schedule.recipient == caller.user
        else {
            throw APIError(.notFound, "no schedule '\(id)'")
        }
        return schedule
    }

    /// Decodes a completed schedule object, classifying failures (see `saveSchedule`).
    static func decodeSchedule(_ object: JSONValue) throws(APIError) -> Schedule {
        try decodeCompleted(Schedule.self, object, invalid: .invalidSchedule)
    }

    /// Refuses a schedule that would show and do nothing when it fires. A
    /// `UILocalNotification` without an alert body, title, sound or badge number presents
    /// nothing (docs/cloudkit-behaviour.md §10; `userInfo`, `category` or `alertAction` alone only decorate
    /// an alert), so Herald would send an empty push: at least one of `alertBody`,
    /// `alertTitle` (non-empty), `soundName`, `applicationIconBadgeNumber` is required. The
    /// trigger is not: no fire date and no region fires immediately (docs/cloudkit-behaviour.md §10).
    /// - Throws: `APIError` (`INVALID_SCHEDULE`) at `alertBody`.
    static func checkContent(_ schedule: Schedule) throws(APIError) {
        let shows = !(schedule.alertBody ?? "").isEmpty || !(schedule.alertTitle ?? "").isEmpty
        let does = !(schedule.soundName ?? "").isEmpty || schedule.applicationIconBadgeNumber != nil
        guard shows || does else {
            throw APIError(
                .invalidSchedule,
                "alertBody: required unless alertTitle, soundName or applicationIconBadgeNumber is given: a schedule must show or do something when it fires")
        }
    }

    /// Refuses what would break the push a firing sends: a `userInfo` key `aps`, or a push
    /// that `ScheduledComposer` cannot fit into APNs' limit even pruned (tried on a firing
    /// at `now`; only the firing's ID and instant vary between firings).
    /// - Throws: `APIError` (`INVALID_SCHEDULE`).
    static func checkPayload(_ schedule: Schedule, now: Int64) throws(APIError) {
        if schedule.userInfo?["aps"] != nil {
            throw APIError(
                .invalidSchedule, "userInfo.aps: the key aps is reserved: it would replace the push's aps dictionary")
        }
        let firing = ScheduledFiring(schedule: schedule, fireDate: now, trigger: .immediate)
        do {
            _ = try ScheduledComposer().compose(
                firing, sequence: 1, createdAt: now, badge: schedule.applicationIconBadgeNumber)
        } catch {
            throw APIError(.invalidSchedule, error.reason)
        }
    }
}
