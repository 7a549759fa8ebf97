/// A part of a push payload that pruning may drop or shorten, in pruning order: least
/// important first (docs/cloudkit-behaviour.md §5, read backwards), so `allCases` *is* the order.
///
/// CloudKit's importance order, most important first, is notificationID, badge,
/// alertLocalizationKey, alertLocalizationArgs, alertBody, alertActionLocalizationKey,
/// alertLaunchImage, soundName, content-available, desiredKeys, reason, recordID,
/// containerIdentifier, titleLocalizationKey, titleLocalizationArgs, title,
/// subtitleLocalizationKey, subtitleLocalizationArgs, subtitle. Herald places the keys
/// that list does not name as follows: `category` and `mutable-content` just before
/// `content-available` (presentation flags, like it); the subscription's identity
/// (`ckuserid`, `dbs`, `sid`) and the `ce` marker last, after the badge — they go only
/// when nothing else is left. The notification ID (`nid`) and the pruned mark (`p`) are
/// never dropped.
public enum PayloadField: String, Sendable, Hashable, CaseIterable {
    /// `aps.alert.subtitle` (shortened before it is dropped).
    case subtitle
    /// `aps.alert.subtitle-loc-args`.
    case subtitleLocalizationArgs
    /// `aps.alert.subtitle-loc-key`.
    case subtitleLocalizationKey
    /// `aps.alert.title` (shortened before it is dropped).
    case title
    /// `aps.alert.title-loc-args`.
    case titleLocalizationArgs
    /// `aps.alert.title-loc-key`.
    case titleLocalizationKey
    /// `ck.cid`.
    case containerIdentifier
    /// The record's or zone's identity: `rid`, `zid` and `zoid`.
    case recordID
    /// `ck.qry.fo`.
    case reason
    /// `ck.qry.af`, all of it.
    case desiredKeys
    /// `aps.category`.
    case category
    /// `aps.mutable-content`.
    case mutableContent
    /// `aps.content-available`.
    case contentAvailable
    /// `aps.sound`.
    case soundName
    /// `aps.alert.launch-image`.
    case alertLaunchImage
    /// `aps.alert.action-loc-key`.
    case alertActionLocalizationKey
    /// `aps.alert.body`, or `aps.alert` when it is a plain string (shortened before it is dropped).
    case alertBody
    /// `aps.alert.loc-args`.
    case alertLocalizationArgs
    /// `aps.alert.loc-key`.
    case alertLocalizationKey
    /// `aps.badge`.
    case badge
    /// `ck.ckuserid`.
    case subscriptionOwner
    /// `ck.*.dbs`.
    case databaseScope
    /// `ck.*.sid`.
    case subscriptionID
    /// `ck.ce`.
    case payloadVersion

    /// Whether pruning shortens this field (a free text) before dropping it.
    public var isShortenable: Bool {
        self == .subtitle || self == .title || self == .alertBody
    }

    /// The payload values this field covers.
    var slots: [PayloadSlot] {
        switch self {
        case .subtitle: [.subtitle]
        case .subtitleLocalizationArgs: [.subtitleLocArgs]
        case .subtitleLocalizationKey: [.subtitleLocKey]
        case .title: [.title]
        case .titleLocalizationArgs: [.titleLocArgs]
        case .titleLocalizationKey: [.titleLocKey]
        case .containerIdentifier: [.cid]
        case .recordID: [.rid, .zid, .zoid]
        case .reason: [.fo]
        case .desiredKeys: [.af]
        case .category: [.category]
        case .mutableContent: [.mutableContent]
        case .contentAvailable: [.contentAvailable]
        case .soundName: [.sound]
        case .alertLaunchImage: [.launchImage]
        case .alertActionLocalizationKey: [.actionLocKey]
        case .alertBody: [.body]
        case .alertLocalizationArgs: [.locArgs]
        case .alertLocalizationKey: [.locKey]
        case .badge: [.badge]
        case .subscriptionOwner: [.ckuserid]
        case .databaseScope: [.dbs]
        case .subscriptionID: [.sid]
        case .payloadVersion: [.ce]
        }
    }
}

/// One thing pruning did to make a payload fit.
public struct PruningStep: Sendable, Hashable, CustomStringConvertible {
    /// Whether the field went entirely or was cut.
    public enum Action: String, Sendable, Hashable {
        /// The field is no longer in the payload.
        case dropped
        /// The text was cut at a grapheme boundary and ends with `…`.
        case shortened
    }

    /// The field concerned.
    public var field: PayloadField
    /// What happened to it.
    public var action: Action

    /// The field went entirely.
    public static func dropped(_ field: PayloadField) -> PruningStep { PruningStep(field: field, action: .dropped) }

    /// The field's text was cut.
    public static func shortened(_ field: PayloadField) -> PruningStep { PruningStep(field: field, action: .shortened) }

    /// `dropped subtitle`, `shortened alertBody`.
    public var description: String { "\(action.rawValue) \(field.rawValue)" }
}
