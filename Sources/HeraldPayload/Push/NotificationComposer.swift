import HeraldModel

/// Turns a match into the notification a user's stream receives and the APNs push it
/// carries (docs/cloudkit-behaviour.md §4, §5; docs/ARCHITECTURE.md §5.3): the payload stage of the compose worker.
///
/// A pure function of its inputs (no I/O, no clock, no randomness): replaying a match with
/// the same sequence, badge and time gives the same bytes. A value type; its only shared
/// state is the memo of payload templates (``PayloadTemplates``), which copies share and
/// which never changes a result; use one from any task.
public struct NotificationComposer: Sendable {
    /// The size limits. Default: APNs' and CloudKit's.
    public var limits: PayloadLimits
    /// The localization table keys are looked up in. Default `Localizable`.
    public var table: String
    /// The subscriptions' payload templates, or `nil` to write every payload directly
    /// (the same bytes, slower; tests compare both).
    public var templates: PayloadTemplates?

    /// Creates a composer with its own memo of payload templates.
    public init(
        limits: PayloadLimits = PayloadLimits(), table: String = "Localizable",
        templates: PayloadTemplates? = PayloadTemplates()
    ) {
        self.limits = limits
        self.table = table
        self.templates = templates
    }

    /// Composes the notification of one match for its recipient.
    ///
    /// - The notification has every property of docs/ARCHITECTURE.md §5.3: its ID is the match's,
    ///   `recordFields` the desired keys' values, the `*LocalizationArgs` the resolved
    ///   values (see ``FieldValue/localizationArgument(maxCharacters:)``), `badge` the
    ///   count when the subscription badges, `rendered` the text in `locale`,
    ///   `excludedDevice` the change's origin device. It is never pruned.
    /// - The push (`apns`): `pushType` `voip` (priority 10) when `voip`, else `alert`
    ///   (priority 10) when the payload as sent shows something (an alert, badge or
    ///   sound) and `background` (priority 5) otherwise; `collapseID` from the
    ///   `collapseIDKey` field; `payload` in the layout of ``ComposedNotification/payload``.
    /// - Size: when the payload exceeds the limit, ``PayloadField`` lists what goes, least
    ///   important first — texts are shortened (grapheme-safe, ending with `…`) before
    ///   they are dropped — until it fits; the push then has `"p": 1` in `ck` and the
    ///   notification `isPruned`, but keeps every value.
    /// - `ck.qry.fo` is 1, 2, 3 for created, updated, deleted; Herald's `recordEntered`
    ///   is sent as 1 and `recordLeft` as 3 — the record entered or left the
    ///   subscription's results, which a device that only knows CloudKit's reasons
    ///   handles like an insertion or a deletion. The notification keeps the exact reason.
    /// - `zid`/`zoid`: the changed record's zone (`qry`, `met`) or the subscribed zone (`fet`).
    ///
    /// - Parameters:
    ///   - match: the subscription, the change, the reason and the recipient.
    ///   - sequence: the notification's position in the recipient's stream.
    ///   - createdAt: when it is composed, milliseconds since 1970 (passed in to stay pure).
    ///   - badge: the recipient's running badge count including this notification; used
    ///     only when the subscription badges (negative counts count as 0).
    ///   - locale: the recipient's locale (`fr-CA`); `nil` uses the catalog's development
    ///     language (`und` without a catalog). `rendered.locale` is the localization
    ///     actually used (`fr` for `fr-CA` served by `fr.lproj`), or this locale when no
    ///     text came from the catalog (see `AlertRenderer`).
    ///   - catalog: the app's localizations for server-side rendering; `nil` renders the
    ///     plain texts (or the keys formatted with their arguments).
    ///   - voip: the app receives its pushes over PushKit (limit ``PayloadLimits/voipMaxBytes``).
    /// - Returns: the notification, the push bytes, the pruning steps and the problems.
    /// - Throws: `payload.invalidMatch` for a match that cannot be a notification (a
    ///   `readNotification`, a query match without a reason); `payload.tooLarge` when
    ///   even the smallest payload does not fit the limit.
    public func compose(
        _ match: Match, sequence: Int64, createdAt: Int64, badge: Int? = nil, locale: String? = nil,
        catalog: LocalizationCatalog? = nil, voip: Bool = false
    ) throws(PayloadError) -> ComposedNotification {
        // The match's parts are read in place (`match.subscription.notificationInfo`), never
        // bound to locals: a local copy of the record change or notification info retains and
        // releases each of their strings (perf).
        let kind = try Self.kind(of: match)

        let values = PayloadValues(
            info: match.subscription.notificationInfo, change: match.change, includeDesiredKeys: kind == .query,
            limits: limits)
        var problems = values.problems

        let shouldBadge = match.subscription.notificationInfo.shouldBadge
        let badgeCount = shouldBadge ? badge.map { max(0, $0) } : nil
        let template = templates?.template(for: match, kind: kind, hasBadge: badgeCount != nil)

        let requestedLocale = locale.flatMap { $0.isEmpty ? nil : $0 }
        let renderLocale = requestedLocale ?? catalog?.developmentLanguage ?? "und"
        // The template keeps the entries of the subscription's keys (looked up once per locale).
        let entries = catalog.map { catalog in
            template?.alertEntries(catalog: catalog, locale: renderLocale, table: table)
                ?? AlertEntries(match.subscription.notificationInfo, catalog: catalog, locale: renderLocale, table: table)
        }
        let rendered = AlertRenderer(locale: renderLocale, table: table, entries: entries)
            .render(match.subscription.notificationInfo, values, catalog: catalog, problems: &problems)
        if shouldBadge, badge == nil {
            problems.append(PayloadError(
                .missingBadge, "the subscription badges but no badge count was given; no badge is sent",
                at: .init(property: "shouldBadge")))
        }

        let maxBytes = limits.maxBytes(voip: voip)
        let encodings: (apns: [UInt8], sorted: [UInt8])
        let pruning: [PruningStep]
        let isVisible: Bool
        if let template,
           let written = template.encodings(match, kind: kind, values: values, badge: badgeCount, maxBytes: maxBytes) {
            // The payload fits: the template's bytes are the direct path's.
            encodings = written
            pruning = []
            isVisible = template.isVisible
        } else {
            var payload = Self.payload(match, kind: kind, values: values, badge: badgeCount)
            pruning = try payload.fit(into: maxBytes)
            encodings = payload.encodings(maxBytes: maxBytes)
            isVisible = payload.isVisible
        }
        let pushType: APNsPush.PushType = voip ? .voip : isVisible ? .alert : .background
        let push = APNsPush(
            pushType: pushType, priority: pushType == .background ? .conservesPower : .immediate,
            collapseID: values.collapseID, encodedPayload: encodings.sorted)
        // The notification is made last, after everything that can throw, and handed straight
        // to the result: a notification kept in a local (or a result changed after it was
        // made) is copied into the return value, every string retained, and then destroyed
        // (~5% of composing a typical notification in perf; `consume` is refused by this compiler).
        // One such copy is still made here (the notification is built in a temporary); filling it
        // inside the result, or in a function of its own, made a second copy, of the result.
        return ComposedNotification(
            notification: Self.notification(
                match, kind: kind, values: values, rendered: rendered, badge: badgeCount, sequence: sequence,
                createdAt: createdAt, isPruned: !pruning.isEmpty, apns: push),
            payload: encodings.apns, pruning: pruning, problems: problems)
    }

    /// The `fo` number of a reason: created 1, updated 2, deleted 3; entered 1, left 3.
    public static func pushCode(of reason: QueryNotificationReason) -> Int {
        switch reason {
        case .recordCreated, .recordEntered: 1
        case .recordUpdated: 2
        case .recordDeleted, .recordLeft: 3
        }
    }

    private static func kind(of match: Match) throws(PayloadError) -> PushPayload.Kind {
        switch match.notificationType {
        case .query:
            guard match.queryNotificationReason != nil else {
                throw PayloadError(.invalidMatch, "a query match needs a queryNotificationReason")
            }
            return .query
        case .recordZone: return .zone
        case .database: return .database
        case .readNotification:
            throw PayloadError(.invalidMatch, "a readNotification is not composed from a match")
        case .scheduled:
            throw PayloadError(.invalidMatch, "a scheduled notification is composed from a firing, not a match")
        }
    }
}
