import HeraldModel

extension NotificationInfo {
    /// What is wrong with this notification info for the payload, checked when a
    /// subscription is saved; an empty result means it is fine.
    ///
    /// Reports (each a ``PayloadError`` whose location names the property or key):
    /// - a field name in `*LocalizationArgs`, `desiredKeys` or `collapseIDKey` that is not
    ///   a CloudKit field name (`payload.invalidFieldName`);
    /// - with a catalog, for each of `alertLocalizationKey`, `titleLocalizationKey` and
    ///   `subtitleLocalizationKey`: the key missing from the development language, a bad
    ///   specifier, or a specifier that refers to an argument beyond the listed arguments,
    ///   in any localization (``LocalizationCatalog/problems(forKey:table:argumentCount:)``);
    /// - without a catalog, the same format checks on a key itself, since that is what
    ///   renders when a key has no entry.
    ///
    /// Not checked here: the number of desired keys (the matcher's `SubscriptionRules`
    /// refuses more than 3), and the types of the named fields — records have no schema
    /// here, so an asset, bytes or missing field, and a collapse ID value over 64 bytes,
    /// are found when a notification is composed: the value is left out and reported in
    /// ``ComposedNotification/problems``.
    public func payloadProblems(catalog: LocalizationCatalog? = nil, table: String = "Localizable") -> [PayloadError] {
        var problems: [PayloadError] = []
        func checkNames(_ names: [String], _ property: String) {
            for (index, name) in names.enumerated() where !FieldValue.isValidFieldName(name) {
                problems.append(PayloadError(
                    .invalidFieldName,
                    "'\(name)' is not a field name (a letter, then letters, digits or '_', at most 255)",
                    at: .init(property: "\(property)[\(index)]")))
            }
        }
        checkNames(alertLocalizationArgs, "alertLocalizationArgs")
        checkNames(titleLocalizationArgs, "titleLocalizationArgs")
        checkNames(subtitleLocalizationArgs, "subtitleLocalizationArgs")
        checkNames(desiredKeys, "desiredKeys")
        if let collapseIDKey, !FieldValue.isValidFieldName(collapseIDKey) {
            problems.append(PayloadError(
                .invalidFieldName, "'\(collapseIDKey)' is not a field name (a letter, then letters, digits or '_', at most 255)",
                at: .init(property: "collapseIDKey")))
        }

        let keys: [(key: String?, arguments: [String], property: String)] = [
            (alertLocalizationKey, alertLocalizationArgs, "alertLocalizationKey"),
            (titleLocalizationKey, titleLocalizationArgs, "titleLocalizationKey"),
            (subtitleLocalizationKey, subtitleLocalizationArgs, "subtitleLocalizationKey"),
        ]
        for (key, arguments, property) in keys {
            guard let key else { continue }
            let found = catalog?.problems(forKey: key, table: table, argumentCount: arguments.count)
                ?? FormatString(key).problems(argumentCount: arguments.count).map { problem in
                    var located = problem
                    located.location.key = key
                    return located
                }
            for problem in found {
                var located = problem
                located.location.property = property
                problems.append(located)
            }
        }
        return problems
    }
}
