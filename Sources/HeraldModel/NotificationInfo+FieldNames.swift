extension NotificationInfo {
    /// The record fields a notification of this info reads: the alert, title and subtitle
    /// arguments, the desired keys and the collapse ID key (docs/cloudkit-behaviour.md §4),
    /// each once, in that order. A match carries only these of its change's fields.
    public var fieldNames: [String] {
        var names: [String] = []
        names.reserveCapacity(
            alertLocalizationArgs.count + titleLocalizationArgs.count + subtitleLocalizationArgs.count + desiredKeys.count + 1)
        func add(_ name: String) {
            if !names.contains(name) { names.append(name) }
        }
        alertLocalizationArgs.forEach(add)
        titleLocalizationArgs.forEach(add)
        subtitleLocalizationArgs.forEach(add)
        desiredKeys.forEach(add)
        collapseIDKey.map(add)
        return names
    }
}
