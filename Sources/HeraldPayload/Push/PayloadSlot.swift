/// One key of a push payload, in the order the payload writes them (docs/cloudkit-behaviour.md §5).
///
/// Written layout, every key optional unless noted:
/// `{"aps": {"alert": …, "badge", "sound", "content-available", "mutable-content", "category"},
///   "ck": {"ce", "cid", "nid" (always), "ckuserid", "p", "qry"|"fet"|"met": {"sid", "dbs",
///   "zid", "zoid", "rid", "fo", "af"}}}` where `alert` is the body as a plain string when
/// the body is its only key, else `{"title", "title-loc-key", "title-loc-args", "subtitle",
/// "subtitle-loc-key", "subtitle-loc-args", "body", "loc-key", "loc-args",
/// "action-loc-key", "launch-image"}`. `aps` is always written (`{}` when empty); `alert`
/// and the kind dictionary only when they have a key.
enum PayloadSlot: Int, CaseIterable {
    // aps.alert, in order.
    case title, titleLocKey, titleLocArgs, subtitle, subtitleLocKey, subtitleLocArgs
    case body, locKey, locArgs, actionLocKey, launchImage
    // aps, in order.
    case badge, sound, contentAvailable, mutableContent, category
    // ck, in order.
    case ce, cid, nid, ckuserid, pruned
    // ck.qry / fet / met, in order.
    case sid, dbs, zid, zoid, rid, fo, af

    static var alertSlots: Range<Int> { PayloadSlot.title.rawValue..<PayloadSlot.badge.rawValue }
    static var apsSlots: Range<Int> { PayloadSlot.badge.rawValue..<PayloadSlot.ce.rawValue }
    static var ckSlots: Range<Int> { PayloadSlot.ce.rawValue..<PayloadSlot.sid.rawValue }
    static var kindSlots: Range<Int> { PayloadSlot.sid.rawValue..<(PayloadSlot.af.rawValue + 1) }

    /// The `alert` slots in the order of their keys' UTF-8 bytes (`WireCodec`'s order).
    static var alertSlotsSorted: [PayloadSlot] {
        [.actionLocKey, .body, .launchImage, .locArgs, .locKey, .subtitle, .subtitleLocArgs, .subtitleLocKey, .title,
         .titleLocArgs, .titleLocKey]
    }

    /// The other `aps` slots in the order of their keys' UTF-8 bytes.
    static var apsSlotsSorted: [PayloadSlot] { [.badge, .category, .contentAvailable, .mutableContent, .sound] }

    /// The kind dictionary's slots in the order of their keys' UTF-8 bytes.
    static var kindSlotsSorted: [PayloadSlot] { [.af, .dbs, .fo, .rid, .sid, .zid, .zoid] }

    /// The JSON key (a literal: no allocation, no escaping needed), written by
    /// `JSONWriter.plainKey(_:)`.
    var key: String {
        switch self {
        case .title: "title"
        case .titleLocKey: "title-loc-key"
        case .titleLocArgs: "title-loc-args"
        case .subtitle: "subtitle"
        case .subtitleLocKey: "subtitle-loc-key"
        case .subtitleLocArgs: "subtitle-loc-args"
        case .body: "body"
        case .locKey: "loc-key"
        case .locArgs: "loc-args"
        case .actionLocKey: "action-loc-key"
        case .launchImage: "launch-image"
        case .badge: "badge"
        case .sound: "sound"
        case .contentAvailable: "content-available"
        case .mutableContent: "mutable-content"
        case .category: "category"
        case .ce: "ce"
        case .cid: "cid"
        case .nid: "nid"
        case .ckuserid: "ckuserid"
        case .pruned: "p"
        case .sid: "sid"
        case .dbs: "dbs"
        case .zid: "zid"
        case .zoid: "zoid"
        case .rid: "rid"
        case .fo: "fo"
        case .af: "af"
        }
    }
}
