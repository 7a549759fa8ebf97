import HeraldModel

/// What ``NotificationComposer/compose(_:sequence:createdAt:badge:locale:catalog:voip:)``
/// produces: the notification, the exact push bytes, and what went wrong on the way.
public struct ComposedNotification: Sendable, Hashable {
    /// The full notification (docs/ARCHITECTURE.md §5.3) with every value, even those the push had to
    /// prune; `apns.payload` is the push as a JSON value (same content as `payload`).
    public var notification: HeraldNotification
    /// The push payload exactly as it goes to APNs: compact UTF-8 JSON of at most the
    /// limit in bytes, keys in this fixed order, each only when set:
    ///
    /// `{"aps": {"alert", "badge", "sound", "content-available": 1, "mutable-content": 1,
    /// "category"}, "ck": {"ce": 2, "cid", "nid" (always), "ckuserid", "p": 1 (when
    /// pruned), "qry" | "fet" | "met": {"sid", "dbs", "zid", "zoid", "rid", "fo", "af"}}}`
    ///
    /// `alert` is the body as a plain string when the body is its only key, else
    /// `{"title", "title-loc-key", "title-loc-args", "subtitle", "subtitle-loc-key",
    /// "subtitle-loc-args", "body", "loc-key", "loc-args", "action-loc-key",
    /// "launch-image"}`; `aps` is always present (`{}` when empty), `alert` and the kind
    /// dictionary only when they have a key; `af` lists the desired keys in the
    /// subscription's order. Send these bytes rather than a re-encoding of
    /// `notification.apns.payload` (same content; `WireCodec` would sort the keys).
    public var payload: [UInt8]
    /// What pruning dropped or shortened, in order; empty when the payload fit.
    public var pruning: [PruningStep]
    /// Problems that did not stop the notification (missing fields, assets left out, a
    /// collapse ID that could not be sent, a localization key without an entry, a bad
    /// specifier in a translation, a badge count missing), each a ``PayloadError`` whose
    /// location names the notification-info property or localization key concerned.
    public var problems: [PayloadError]

    /// Creates a result.
    public init(notification: HeraldNotification, payload: [UInt8], pruning: [PruningStep], problems: [PayloadError]) {
        self.notification = notification
        self.payload = payload
        self.pruning = pruning
        self.problems = problems
    }
}
