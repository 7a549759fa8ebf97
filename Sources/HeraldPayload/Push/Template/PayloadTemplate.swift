import HeraldModel
import Synchronization

/// The push payload of one subscription with everything that does not depend on the record
/// already written (issue 13): the keys, the texts and flags of its notification info, its
/// identity, the `ck` skeleton — in both orders ``PushPayload/encodings(maxBytes:)`` writes
/// (as sent to APNs, and sorted as the notification carries it). Composing a notification then
/// copies these bytes and writes only the values in the holes between them: the localization
/// arguments, the badge, the notification ID, the zone, the record name, the reason, the
/// desired keys.
///
/// The fixed bytes are written by ``PushPayload`` itself, with a marker string in each hole,
/// and cut at the markers; each hole is written as ``PushPayload`` writes that slot. So a
/// payload written from the template is byte for byte the one written directly — as long as
/// it fits the limit: a payload that does not fit is pruned on the direct path
/// (``NotificationComposer`` only uses the template's bytes when they fit).
/// `PayloadTemplateTests` compares both paths on random notifications.
final class PayloadTemplate: Sendable {
    /// A slot whose value changes from one notification to the next (the holes).
    enum Hole: Int, Sendable, CaseIterable {
        case titleLocArgs, subtitleLocArgs, locArgs, badge, nid, zid, zoid, rid, fo
        /// `af`, written with its key and one comma, and left out with them when none of
        /// the desired keys has a value.
        case desiredKeys

        /// The payload slot the hole stands for.
        var slot: PayloadSlot {
            switch self {
            case .titleLocArgs: .titleLocArgs
            case .subtitleLocArgs: .subtitleLocArgs
            case .locArgs: .locArgs
            case .badge: .badge
            case .nid: .nid
            case .zid: .zid
            case .zoid: .zoid
            case .rid: .rid
            case .fo: .fo
            case .desiredKeys: .af
            }
        }

        /// The text written in the hole's slot to find it again: control characters a
        /// fixed text almost never has (one that does makes the marker appear twice, and
        /// the subscription gets no template).
        var marker: String { "\u{1}\(rawValue)\u{2}" }
    }

    /// The notification info the template was made from (a changed subscription needs a new one).
    let info: NotificationInfo
    /// The subscription's database (written as `dbs`).
    let database: DatabaseScope
    /// The payload as sent to APNs and in sorted order, or `nil` when the subscription's
    /// texts hold a marker (then every payload is written directly).
    let layouts: (apns: PayloadLayout, sorted: PayloadLayout)?
    /// The holes of the layouts, in the order their values are written.
    let holes: [Hole]
    /// How `af` is written, when the layouts have it.
    let desiredKeys: DesiredKeyOrder?
    /// Whether APNs shows the push (an alert, a badge or a sound): fixed by the subscription
    /// and whether a badge is sent.
    let isVisible: Bool

    /// The catalog entries of the subscription's localization keys last looked up, with the
    /// catalog, locale and table they were looked up for: most notifications of a subscription
    /// go to recipients of one locale.
    private let lastEntries = Mutex<(catalog: LocalizationCatalog.Identity, locale: String, table: String, entries: AlertEntries)?>(nil)

    /// Writes the fixed parts of `subscription`'s payloads of one kind, with or without a badge.
    /// Borrowed: an owned parameter made `PayloadTemplates.template(for:kind:hasBadge:)` copy
    /// the match's whole subscription for every notification, made or not (perf).
    init(subscription: borrowing Subscription, kind: PushPayload.Kind, hasBadge: Bool) {
        info = subscription.notificationInfo
        database = subscription.database
        var payload = PushPayload(kind: kind)
        NotificationComposer.setFixedValues(of: subscription, into: &payload)
        var holes: [Hole] = [.nid, .zid, .zoid]
        if info.titleLocalizationKey != nil, !info.titleLocalizationArgs.isEmpty { holes.append(.titleLocArgs) }
        if info.subtitleLocalizationKey != nil, !info.subtitleLocalizationArgs.isEmpty { holes.append(.subtitleLocArgs) }
        if info.alertLocalizationKey != nil, !info.alertLocalizationArgs.isEmpty { holes.append(.locArgs) }
        if hasBadge { holes.append(.badge) }
        if kind == .query {
            holes += [.rid, .fo]
            if !info.desiredKeys.isEmpty { holes.append(.desiredKeys) }
        }
        for hole in holes { payload.set(hole.slot, text: hole.marker) }
        self.holes = holes
        desiredKeys = holes.contains(.desiredKeys) ? DesiredKeyOrder(info.desiredKeys) : nil
        isVisible = payload.isVisible
        let encodings = payload.encodings(maxBytes: .max)
        if let apns = PayloadLayout(splitting: encodings.apns, at: holes),
           let sorted = PayloadLayout(splitting: encodings.sorted, at: holes) {
            layouts = (apns, sorted)
        } else {
            layouts = nil
        }
    }

    /// Whether the template is the one of `match`'s subscription (its notification info and
    /// database unchanged; the cache key covers its identity). Reads the match in place: a
    /// `Subscription` parameter was a copy of the subscription per notification (perf).
    func serves(_ match: Match) -> Bool {
        match.subscription.database == database && match.subscription.notificationInfo == info
    }

    /// The entries of the subscription's localization keys in `catalog` for `locale`: the
    /// ones looked up last when the catalog, locale and table are the same, else looked up now.
    func alertEntries(catalog: LocalizationCatalog, locale: String, table: String) -> AlertEntries {
        let identity = catalog.identity
        if let last = lastEntries.withLock({ last in
            last.flatMap { $0.catalog === identity && $0.locale == locale && $0.table == table ? $0.entries : nil }
        }) {
            return last
        }
        let entries = AlertEntries(info, catalog: catalog, locale: locale, table: table)
        lastEntries.withLock { $0 = (identity, locale, table, entries) }
        return entries
    }

    /// The payload of one notification in both orders, or `nil` when it would exceed
    /// `maxBytes` (it must then be pruned, on the direct path) or the subscription has no
    /// layouts.
    func encodings(
        _ match: Match, kind: PushPayload.Kind, values: PayloadValues, badge: Int?, maxBytes: Int
    ) -> (apns: [UInt8], sorted: [UInt8])? {
        guard let layouts, layouts.apns.fixedBytes < maxBytes else { return nil }
        let values = HoleBytes(
            holes, desiredKeys: desiredKeys, match: match, zone: NotificationComposer.zone(of: match, kind: kind),
            values: values, badge: badge)
        let size = layouts.apns.size(with: values)
        guard size <= maxBytes else { return nil }
        let apns = layouts.apns.write(values, size: size)
        let sorted = layouts.sorted.write(values, size: layouts.sorted.size(with: values))
        return (apns, sorted)
    }
}
