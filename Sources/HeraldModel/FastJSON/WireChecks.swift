/// The value checks that the fast JSON reader (`FastJSON/`) and the compact reader
/// (`Compact/`) both make, with the Codable path's messages, written once so the two
/// readers cannot drift apart.
extension ModelError {
    /// `value` at `path` is below zero (`decodeNonNegative`).
    static func negative(_ value: Int64, path: String) -> ModelError {
        ModelError(.invalidValue, "must not be negative, got \(value)", path: path)
    }

    /// A record field name that breaks `FieldValue.isValidFieldName`, at the field (the
    /// caller prefixes the path of the `fields` object).
    static func invalidFieldName(_ name: String) -> ModelError {
        ModelError(.invalidValue, "invalid field name \"\(name)\" (a letter, then letters, digits or _; at most 255)")
            .prefixed(name)
    }
}

extension Subscription {
    /// The subscription's type may be used in its database.
    static func checkType(_ type: SubscriptionType, allowedIn database: DatabaseScope) throws(ModelError) {
        guard type.isAllowed(in: database) else {
            throw ModelError(
                .invalidValue, "\(type.rawValue) subscriptions are not allowed in the \(database.rawValue) database",
                path: "subscriptionType")
        }
    }

    /// A zone subscription names its zone.
    func checkZoneID() throws(ModelError) {
        if subscriptionType == .zone, zoneID == nil {
            throw ModelError(.missingValue, "a zone subscription needs a zoneID", path: "zoneID")
        }
    }
}
