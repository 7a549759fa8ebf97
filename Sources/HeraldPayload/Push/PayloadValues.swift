import HeraldModel

/// The record values a notification carries, resolved from the field names its
/// subscription's `NotificationInfo` lists (docs/cloudkit-behaviour.md §4), with what went wrong.
///
/// - A localization argument naming a missing field, or an asset or bytes field, is an
///   empty string (so later arguments keep their positions) and is reported.
/// - A desired key naming a missing field, or an asset, bytes or non-finite field, is
///   left out and reported; a key listed twice is used once.
/// - Arguments are resolved only for a localization key that is set (without the key
///   they are never shown); desired keys only for query notifications (only `qry` has `af`).
/// - The collapse ID is the field's argument text, uncut; a missing or unsupported field,
///   an empty value, or one over the byte limit gives no collapse ID and is reported
///   (a cut ID could collapse unrelated notifications).
struct PayloadValues {
    /// One list of localization arguments: the typed values (for server-side rendering)
    /// and their texts (for `loc-args` and the notification).
    struct Arguments {
        var values: [FormatArgument] = []
        var texts: [String] = []
    }

    var alert = Arguments()
    var title = Arguments()
    var subtitle = Arguments()
    /// The desired keys' values in the subscription's order, each key once (the composer
    /// relies on it: `recordFields` is made with `Dictionary(uniqueKeysWithValues:)`); `nil`
    /// when the notification has no desired keys.
    var desiredKeys: [(key: String, value: JSONValue)]?
    var collapseID: String?
    var problems: [PayloadError] = []

    /// `info` and `change` are borrowed: an initializer takes its parameters owned unless told
    /// otherwise, so the composer's `match.subscription.notificationInfo` and `match.change`
    /// were copied for every notification (every string and dictionary retained, then released).
    init(
        info: borrowing NotificationInfo, change: borrowing RecordChange, includeDesiredKeys: Bool,
        limits: PayloadLimits
    ) {
        let maxCharacters = limits.maxValueCharacters
        var fields = FieldLookups()
        if info.alertLocalizationKey != nil {
            alert = resolve(info.alertLocalizationArgs, "alertLocalizationArgs", change, &fields, maxCharacters)
        }
        if info.titleLocalizationKey != nil {
            title = resolve(info.titleLocalizationArgs, "titleLocalizationArgs", change, &fields, maxCharacters)
        }
        if info.subtitleLocalizationKey != nil {
            subtitle = resolve(info.subtitleLocalizationArgs, "subtitleLocalizationArgs", change, &fields, maxCharacters)
        }
        if includeDesiredKeys, !info.desiredKeys.isEmpty {
            var values: [(key: String, value: JSONValue)] = []
            values.reserveCapacity(info.desiredKeys.count)
            for (index, name) in info.desiredKeys.enumerated() where !values.contains(where: { $0.key == name }) {
                guard let field = fields.value(named: name, in: change) else {
                    problems.append(Self.missing(name, "desiredKeys[\(index)]", "left out of the desired keys"))
                    continue
                }
                guard let value = field.desiredKeyValue(maxCharacters: maxCharacters) else {
                    problems.append(Self.unsupported(name, field, "desiredKeys[\(index)]", "left out of the desired keys"))
                    continue
                }
                values.append((name, value))
            }
            desiredKeys = values
        }
        if let key = info.collapseIDKey {
            collapseID = resolveCollapseID(key, change, &fields, limits.maxCollapseIDBytes)
        }
    }

    /// The record's values by name, each name looked up once (``RecordChange/payloadValue(named:)``
    /// hashes the name): a typical subscription names a field both as a localization argument
    /// and as a desired key. The first four names are kept in stored slots compared one by one
    /// (short names compare as two words); later ones are looked up every time. Slots, not an
    /// array: an array of tuples costs an allocation and a generic metadata lookup per
    /// notification (perf: more than the lookups it saves). The change is passed in, not held:
    /// a stored copy would retain each of its strings.
    private struct FieldLookups {
        private var names = ("", "", "", "")
        private var values: (FieldValue?, FieldValue?, FieldValue?, FieldValue?) = (nil, nil, nil, nil)
        private var count = 0

        mutating func value(named name: String, in change: RecordChange) -> FieldValue? {
            if count > 0, names.0 == name { return values.0 }
            if count > 1, names.1 == name { return values.1 }
            if count > 2, names.2 == name { return values.2 }
            if count > 3, names.3 == name { return values.3 }
            let value = change.payloadValue(named: name)
            switch count {
            case 0: (names.0, values.0) = (name, value)
            case 1: (names.1, values.1) = (name, value)
            case 2: (names.2, values.2) = (name, value)
            case 3: (names.3, values.3) = (name, value)
            default: return value
            }
            count += 1
            return value
        }
    }

    private mutating func resolve(
        _ names: [String], _ property: String, _ change: RecordChange, _ fields: inout FieldLookups, _ maxCharacters: Int
    ) -> Arguments {
        var arguments = Arguments()
        arguments.values.reserveCapacity(names.count)
        arguments.texts.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            let argument: FormatArgument
            if let field = fields.value(named: name, in: change) {
                if let value = field.localizationArgument(maxCharacters: maxCharacters) {
                    argument = value
                } else {
                    problems.append(Self.unsupported(name, field, "\(property)[\(index)]", "its argument is empty"))
                    argument = .string("")
                }
            } else {
                problems.append(Self.missing(name, "\(property)[\(index)]", "its argument is empty"))
                argument = .string("")
            }
            arguments.values.append(argument)
            arguments.texts.append(argument.text)
        }
        return arguments
    }

    private mutating func resolveCollapseID(
        _ name: String, _ change: RecordChange, _ fields: inout FieldLookups, _ maxBytes: Int
    ) -> String? {
        let property = "collapseIDKey"
        guard let field = fields.value(named: name, in: change) else {
            problems.append(Self.missing(name, property, "no collapse ID is sent"))
            return nil
        }
        guard let text = field.localizationArgument(maxCharacters: .max)?.text else {
            problems.append(Self.unsupported(name, field, property, "no collapse ID is sent"))
            return nil
        }
        guard !text.isEmpty, text.utf8.count <= maxBytes else {
            let what = text.isEmpty ? "is empty" : "is \(text.utf8.count) bytes, more than \(maxBytes)"
            problems.append(PayloadError(
                .collapseID, "the value of field '\(name)' \(what); no collapse ID is sent",
                at: .init(property: property)))
            return nil
        }
        return text
    }

    static func missing(_ name: String, _ property: String, _ consequence: String) -> PayloadError {
        PayloadError(.missingField, "the record has no field '\(name)'; \(consequence)", at: .init(property: property))
    }

    static func unsupported(_ name: String, _ field: FieldValue, _ property: String, _ consequence: String) -> PayloadError {
        let why = field.isPayloadType ? "holds a value JSON cannot carry" : "is \(field.type.rawValue), which never goes into a payload"
        return PayloadError(.unsupportedField, "field '\(name)' \(why); \(consequence)", at: .init(property: property))
    }
}
