import Foundation
import HeraldModel
import HeraldPayload
import HeraldScheduler
import Hummingbird

/// `…/schedules`: the caller's scheduled notifications, saved (under the 64 limit),
/// listed, read and deleted.
struct ScheduleRoutes: Sendable {
    let schedules: any ScheduleDirectory
    let publisher: any HeraldPublisher
    let bodies: JSONBodies
    let clock: APIClock

    /// `POST` and `GET` at the collection's path, `GET` and `DELETE` at `{scheduleID}` under it.
    var collection: RouteCollection<HeraldRequestContext> {
        RouteCollection(context: HeraldRequestContext.self)
            .post(use: save)
            .get(use: list)
            .get(":scheduleID", use: read)
            .delete(":scheduleID", use: delete)
    }

    /// `GET schedules`: the caller's pending schedules in the container, soonest first
    /// (by `nextFireDate`), region schedules last, ties by ID.
    @Sendable func list(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let now = clock.milliseconds
        let views = try ownSchedules(context.requireCaller())
            .map { (rank: Self.rank($0, now: now), schedule: $0) }
            .sorted { $0.rank < $1.rank }
            .map { ScheduleView(schedule: $0.schedule, nextFireDate: $0.rank.instant) }
        return try JSONBodies.response(.ok, ScheduleList(schedules: views))
    }

    /// `GET schedules/{id}`: the schedule and its `nextFireDate`; 404 when absent (or
    /// another user's: the key holds the caller).
    @Sendable func read(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let schedule = try ownedSchedule(context, caller: context.requireCaller())
        let view = ScheduleView(schedule: schedule, nextFireDate: Self.rank(schedule, now: clock.milliseconds).instant)
        return try JSONBodies.response(.ok, view)
    }

    /// `DELETE schedules/{id}`: publishes the tombstone; 404 when absent. Pending firings
    /// stop when the schedule stage consumes it.
    @Sendable func delete(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let schedule = try ownedSchedule(context, caller: context.requireCaller())
        try await PublishFailure.publishing("schedule deletion") { try await publisher.deleteSchedule(schedule) }
        return try JSONBodies.response(.ok, DeletedSchedule(scheduleID: schedule.scheduleID, deleted: true))
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
    /// - The limit is `ScheduleAdmission`'s decision over the caller's pending schedules in
    ///   the container: this one is published unless it is itself discarded; the other
    ///   discarded ones (and, when it is, the version it would have replaced) get tombstones.
    @Sendable func save(_ request: Request, context: HeraldRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await bodies.decode(JSONValue.self, from: request)
        guard case .object(var members) = body else {
            throw APIError(.badRequest, "the body must be a JSON object (a schedule), got \(body.kindDescription)")
        }
        if let createdAt = members["createdAt"], createdAt != .null {
            throw APIError(.badRequest, "createdAt: set by the server when it accepts the schedule; leave it out")
        }
        try JSONBodies.complete(&members, with: [
            ("container", caller.container, "the path"), ("recipient", caller.user, "the bearer token"),
        ])
        if members["scheduleID"] == nil || members["scheduleID"] == .null {
            members["scheduleID"] = .string(UUID().uuidString.lowercased())
        }
        let now = clock.milliseconds
        members["createdAt"] = .integer(now)
        let schedule = try Self.decodeSchedule(.object(members))
        try Self.checkContent(schedule)
        try Self.checkPayload(schedule, now: now)

        let admission = ScheduleAdmission.deciding(schedule, pending: ownSchedules(caller), now: now)
        if admission.admitted {
            try await PublishFailure.publishing("schedule") { try await publisher.publish(schedule: schedule) }
        }
        for stale in admission.tombstones {
            try await PublishFailure.publishing("discarded schedule") { try await publisher.deleteSchedule(stale) }
        }
        let view = ScheduleView(schedule: schedule, nextFireDate: Self.rank(schedule, now: now).instant)
        return try JSONBodies.response(.created, SavedSchedule(schedule: view, discarded: admission.discarded.map(\.scheduleID)))
    }

    /// Where `schedule` ranks for the listing at `now`, in its own zone (as for the 64 limit).
    static func rank(_ schedule: Schedule, now: Int64) -> PendingLimit.Rank {
        PendingLimit.rank(schedule, now: now, userTimeZone: nil)
    }

    /// The caller's pending schedules in the token's container.
    private func ownSchedules(_ caller: Caller) -> [Schedule] {
        schedules.schedules(recipient: caller.user, container: caller.container)
            .filter { $0.recipient == caller.user && $0.container == caller.container }
    }

    /// The schedule of the path, if the caller has it.
    /// - Throws: `APIError` (`NOT_FOUND`).
    private func ownedSchedule(_ context: HeraldRequestContext, caller: Caller) throws(APIError) -> Schedule {
        let id = try context.pathParameter("scheduleID")
        guard let schedule = schedules.schedule(forKey: "\(caller.container)/\(caller.user)/\(id)"),
            schedule.recipient == caller.user
        else {
            throw APIError(.notFound, "no schedule '\(id)'")
        }
        return schedule
    }

    /// Decodes a completed schedule object, classifying failures (see `saveSchedule`).
    static func decodeSchedule(_ object: JSONValue) throws(APIError) -> Schedule {
        try JSONBodies.decodeCompleted(Schedule.self, object, invalid: .invalidSchedule)
    }

    /// Refuses a schedule that would show and do nothing when it fires
    /// (`ScheduleAdmission.contentProblem(of:)`).
    /// - Throws: `APIError` (`INVALID_SCHEDULE`) at `alertBody`.
    static func checkContent(_ schedule: Schedule) throws(APIError) {
        if let problem = ScheduleAdmission.contentProblem(of: schedule) {
            throw APIError(.invalidSchedule, problem)
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
        do {
            try ScheduledComposer().checkFirings(of: schedule, now: now)
        } catch {
            throw APIError(.invalidSchedule, error.reason)
        }
    }
}
