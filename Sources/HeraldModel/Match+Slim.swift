extension Match {
    /// The version of the compact form matches are written in (the `form` member). A match
    /// without `form` is in the full form of earlier versions (the whole subscription and
    /// change), which is still read, so a compose stage keeps reading what an older match
    /// stage wrote during a rolling upgrade.
    public static let slimForm: Int64 = 2

    /// The match as it travels on `matches`: only what the compose stage reads.
    ///
    /// - The subscription without its `query` and `firesOn` (they decide whether it fires,
    ///   which the match stage already did): IDs, type, container, database, owner, zone,
    ///   `firesOnce`, the revision and the notification info.
    /// - The change without `previousFields` and `participants`, and with only the fields
    ///   its subscription's notification info names (`NotificationInfo.fieldNames`); the
    ///   record's metadata (name, zone, creator, times, origin device) stays.
    public func slimmed() -> Match {
        var slim = self
        slim.subscription.query = nil
        slim.subscription.firesOn = []
        slim.change.previousFields = nil
        slim.change.participants = nil
        let names = subscription.notificationInfo.fieldNames
        var fields: [String: FieldValue] = [:]
        if !names.isEmpty, !change.fields.isEmpty {
            fields.reserveCapacity(names.count)
            for name in names {
                if let value = change.fields[name] { fields[name] = value }
            }
        }
        slim.change.fields = fields
        return slim
    }
}
