import HeraldModel

/// Turns a schedule's firing into the notification of the recipient's stream and the push
/// it carries (docs/cloudkit-behaviour.md §10): the compose step for UILocalNotification-style schedules.
///
/// Pure, like ``NotificationComposer``: the same firing, sequence, badge and time give the
/// same bytes.
public struct ScheduledComposer: Sendable {
    /// The size limits. Default: APNs'.
    public var limits: PayloadLimits

    public init(limits: PayloadLimits = PayloadLimits()) {
        self.limits = limits
    }

    /// Composes one firing.
    ///
    /// - The notification (`scheduled`) keeps the schedule's texts as given, the ID of the
    ///   firing, its instant and trigger, `userInfo`, and `badge` when the schedule sets
    ///   one; `rendered.body` is the body as displayed (printf escapes stripped, `%%` → `%`,
    ///   see ``LocalAlertText``).
    /// - The push: `{"aps": {"alert", "badge", "sound", "category"}, …userInfo}`; `alert`
    ///   is the displayed body alone as a string, or `{"title", "body", "action-loc-key",
    ///   "launch-image"}`; `hasAction == false` sends `"action-loc-key": null` (an alert
    ///   with only a dismiss button); an `alertAction` is sent as `action-loc-key` (a key
    ///   with no translation shows as itself). Push type `alert`, priority 10 when it shows
    ///   something, else `background`, priority 5, with `content-available: 1`.
    /// - Size: over the limit, the body is shortened (grapheme-safe, ending with `…`), then
    ///   `userInfo` is dropped (reported in `problems`: pruning steps name only the
    ///   CloudKit fields), then the title shortened; the notification is `isPruned` but
    ///   keeps every value.
    /// - Parameters:
    ///   - badge: the count to show, the schedule's `applicationIconBadgeNumber` (`nil`: the
    ///     badge is left as it is and not sent).
    ///   - locale: the recipient's locale, recorded in `rendered` (`und` when unknown).
    /// - Throws: `payload.tooLarge` when even the pruned payload does not fit;
    ///   `payload.unsupportedField` for a `userInfo` key `aps`, which would clash with the push.
    public func compose(
        _ firing: ScheduledFiring, sequence: Int64, createdAt: Int64, badge: Int?, locale: String? = nil
    ) throws(PayloadError) -> ComposedNotification {
        let schedule = firing.schedule
        if schedule.userInfo?["aps"] != nil {
            throw PayloadError(.unsupportedField, "userInfo may not have a key aps: it would replace the push's aps dictionary")
        }
        let body = schedule.alertBody.map(LocalAlertText.displayed)
        var notification = HeraldNotification(
            notificationID: firing.firingID, notificationType: .scheduled, containerIdentifier: firing.container,
            recipient: firing.recipient, sequence: sequence, createdAt: createdAt)
        notification.scheduleID = firing.scheduleID
        notification.fireDate = firing.fireDate
        notification.trigger = firing.trigger.rawValue
        notification.alertBody = schedule.alertBody
        notification.title = schedule.alertTitle
        notification.alertAction = schedule.alertAction
        notification.hasAction = schedule.hasAction ? nil : false
        notification.alertLaunchImage = schedule.alertLaunchImage
        notification.category = schedule.category
        notification.soundName = schedule.soundName
        notification.badge = badge.map { max(0, $0) }
        notification.userInfo = schedule.userInfo
        if body != nil || schedule.alertTitle != nil {
            notification.rendered = RenderedAlert(locale: locale ?? "und", title: schedule.alertTitle, body: body)
        }

        var parts = LocalPushParts(schedule: schedule, body: body, badge: notification.badge)
        let (payload, pruning, problems) = try parts.fit(into: limits.maxBytes)
        notification.isPruned = !pruning.isEmpty
        let visible = parts.isVisible
        notification.apns = APNsPush(
            pushType: visible ? .alert : .background, priority: visible ? .immediate : .conservesPower,
            payload: payload)
        return ComposedNotification(
            notification: notification, payload: payload.jsonBytes, pruning: pruning, problems: problems)
    }
}

/// The values of a scheduled push, and how to shrink them to a byte limit.
struct LocalPushParts {
    var title: String?
    var body: String?
    var action: JSONValue?
    var launchImage: String?
    var badge: Int?
    var sound: String?
    var category: String?
    var userInfo: [String: JSONValue]?

    init(schedule: Schedule, body: String?, badge: Int?) {
        title = schedule.alertTitle
        self.body = body
        action = schedule.hasAction ? schedule.alertAction.map(JSONValue.string) : .null
        launchImage = schedule.alertLaunchImage
        self.badge = badge
        sound = schedule.soundName
        category = schedule.category
        userInfo = schedule.userInfo
    }

    /// Whether the push shows something (an alert, a badge or a sound).
    var isVisible: Bool { title != nil || body != nil || badge != nil || sound != nil }

    var payload: JSONValue {
        var aps: [String: JSONValue] = [:]
        let onlyBody = title == nil && action == nil && launchImage == nil
        if let body, onlyBody {
            aps["alert"] = .string(body)
        } else if title != nil || body != nil || launchImage != nil || action != nil {
            var alert: [String: JSONValue] = [:]
            if let title { alert["title"] = .string(title) }
            if let body { alert["body"] = .string(body) }
            if let action { alert["action-loc-key"] = action }
            if let launchImage { alert["launch-image"] = .string(launchImage) }
            aps["alert"] = .object(alert)
        }
        if let badge { aps["badge"] = .integer(Int64(badge)) }
        if let sound { aps["sound"] = .string(sound) }
        if let category { aps["category"] = .string(category) }
        if !isVisible { aps["content-available"] = .integer(1) }
        var root = userInfo ?? [:]
        root["aps"] = .object(aps)
        return .object(root)
    }

    /// The payload within `limit` bytes and what had to go.
    mutating func fit(into limit: Int) throws(PayloadError) -> (JSONValue, [PruningStep], [PayloadError]) {
        var steps: [PruningStep] = []
        var problems: [PayloadError] = []
        var current = payload
        func size() -> Int { JSONWriter.size(of: current) }
        if size() > limit, let text = body {
            let budget = JSONWriter.stringSize(text) - (size() - limit)
            body = text.shortened(toJSONBytes: budget)
            steps.append(PruningStep(field: .alertBody, action: body == nil ? .dropped : .shortened))
            current = payload
        }
        if size() > limit, userInfo != nil {
            userInfo = nil
            problems.append(PayloadError(.payloadTooLarge, "userInfo was left out of the push to fit \(limit) bytes"))
            current = payload
        }
        if size() > limit, let text = title {
            let budget = JSONWriter.stringSize(text) - (size() - limit)
            title = text.shortened(toJSONBytes: budget)
            steps.append(PruningStep(field: .title, action: title == nil ? .dropped : .shortened))
            current = payload
        }
        guard size() <= limit else {
            throw PayloadError(.payloadTooLarge, "the scheduled push needs \(size()) bytes even pruned; the limit is \(limit)")
        }
        return (current, steps, problems)
    }
}
