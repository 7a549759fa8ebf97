import Foundation
import HeraldModel

/// A payload body in `JSONWriter`'s canonical form (what Herald composes), read for
/// `APNsRules` without building a `JSONValue` tree: one scan, then member lookups. Any
/// other body (whitespace, escapes, fractions, …) is left to the tree, which gives the
/// same answers (`APNsRulesTests`).
struct CanonicalPayload {
    let document: JSONDocument

    /// `nil` unless `body` is one canonical JSON value.
    init?(_ body: [UInt8]) {
        guard let document = try? JSONDocument(Data(body)), document.canonicalBytes(JSONDocument.root)?.count == body.count
        else { return nil }
        self.document = document
    }

    /// The payload rules past size: an object with an `aps` object; a background push with
    /// `content-available: 1` and no alert, sound or badge.
    func refusal(background: Bool) -> PushError? {
        let root = JSONDocument.root
        guard document.kind(root) == .object, let aps = document.member("aps", of: root), document.kind(aps) == .object
        else { return APNsRules.notAnAPSObject }
        guard background else { return nil }
        guard let available = document.member("content-available", of: aps), document.isInteger(available, text: "1")
        else { return APNsRules.noContentAvailable }
        if document.member("alert", of: aps) != nil || document.member("sound", of: aps) != nil
            || document.member("badge", of: aps) != nil
        {
            return APNsRules.backgroundWithAlert
        }
        return nil
    }
}
