/// What a subscription asks to be sent when it fires (CKNotificationInfo, docs/cloudkit-behaviour.md §4).
///
/// Every property is optional on the wire: strings are `nil`, booleans `false` and
/// arrays empty when absent, and encoding omits them in that state, so a round trip
/// gives the same bytes. `*LocalizationArgs` and `desiredKeys` are **record field
/// names**; the payload stage substitutes the record's values and enforces the CloudKit
/// limits (at most 3 desired keys, 100-character values).
public struct NotificationInfo: Sendable, Hashable, Codable {
    public var alertBody: String?
    public var alertLocalizationKey: String?
    public var alertLocalizationArgs: [String]
    public var title: String?
    public var titleLocalizationKey: String?
    public var titleLocalizationArgs: [String]
    public var subtitle: String?
    public var subtitleLocalizationKey: String?
    public var subtitleLocalizationArgs: [String]
    public var alertActionLocalizationKey: String?
    public var alertLaunchImage: String?
    public var soundName: String?
    /// Increment the user's badge.
    public var shouldBadge: Bool
    /// Send `content-available: 1` (alone, a silent background push).
    public var shouldSendContentAvailable: Bool
    /// Send `mutable-content: 1`.
    public var shouldSendMutableContent: Bool
    /// Record fields to include in the push (`ck.qry.af`).
    public var desiredKeys: [String]
    public var category: String?
    /// Name of the record field whose value becomes the `apns-collapse-id` header.
    public var collapseIDKey: String?

    /// Creates notification info; everything defaults to unset.
    public init(
        alertBody: String? = nil, alertLocalizationKey: String? = nil, alertLocalizationArgs: [String] = [],
        title: String? = nil, titleLocalizationKey: String? = nil, titleLocalizationArgs: [String] = [],
        subtitle: String? = nil, subtitleLocalizationKey: String? = nil, subtitleLocalizationArgs: [String] = [],
        alertActionLocalizationKey: String? = nil, alertLaunchImage: String? = nil, soundName: String? = nil,
        shouldBadge: Bool = false, shouldSendContentAvailable: Bool = false, shouldSendMutableContent: Bool = false,
        desiredKeys: [String] = [], category: String? = nil, collapseIDKey: String? = nil
    ) {
        self.alertBody = alertBody
        self.alertLocalizationKey = alertLocalizationKey
        self.alertLocalizationArgs = alertLocalizationArgs
        self.title = title
        self.titleLocalizationKey = titleLocalizationKey
        self.titleLocalizationArgs = titleLocalizationArgs
        self.subtitle = subtitle
        self.subtitleLocalizationKey = subtitleLocalizationKey
        self.subtitleLocalizationArgs = subtitleLocalizationArgs
        self.alertActionLocalizationKey = alertActionLocalizationKey
        self.alertLaunchImage = alertLaunchImage
        self.soundName = soundName
        self.shouldBadge = shouldBadge
        self.shouldSendContentAvailable = shouldSendContentAvailable
        self.shouldSendMutableContent = shouldSendMutableContent
        self.desiredKeys = desiredKeys
        self.category = category
        self.collapseIDKey = collapseIDKey
    }

    private enum CodingKeys: String, CodingKey {
        case alertBody, alertLocalizationKey, alertLocalizationArgs, title, titleLocalizationKey
        case titleLocalizationArgs, subtitle, subtitleLocalizationKey, subtitleLocalizationArgs
        case alertActionLocalizationKey, alertLaunchImage, soundName, shouldBadge, shouldSendContentAvailable
        case shouldSendMutableContent, desiredKeys, category, collapseIDKey
    }

    /// Decodes with defaults for absent keys; argument and key lists hold non-empty names.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (alertBody, alertLocalizationKey, alertLocalizationArgs) = try c.decodeText(
            .alertBody, .alertLocalizationKey, .alertLocalizationArgs)
        (title, titleLocalizationKey, titleLocalizationArgs) = try c.decodeText(
            .title, .titleLocalizationKey, .titleLocalizationArgs)
        (subtitle, subtitleLocalizationKey, subtitleLocalizationArgs) = try c.decodeText(
            .subtitle, .subtitleLocalizationKey, .subtitleLocalizationArgs)
        alertActionLocalizationKey = try c.decodeNonEmptyIfPresent(.alertActionLocalizationKey)
        alertLaunchImage = try c.decodeIfPresent(String.self, forKey: .alertLaunchImage)
        soundName = try c.decodeIfPresent(String.self, forKey: .soundName)
        shouldBadge = try c.decodeIfPresent(Bool.self, forKey: .shouldBadge) ?? false
        shouldSendContentAvailable = try c.decodeIfPresent(Bool.self, forKey: .shouldSendContentAvailable) ?? false
        shouldSendMutableContent = try c.decodeIfPresent(Bool.self, forKey: .shouldSendMutableContent) ?? false
        desiredKeys = try c.decodeNonEmptyStringsIfPresent(.desiredKeys) ?? []
        category = try c.decodeIfPresent(String.self, forKey: .category)
        collapseIDKey = try c.decodeNonEmptyIfPresent(.collapseIDKey)
    }

    /// Encodes only what is set: `nil` strings, `false` flags and empty lists are omitted.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeText(
            (alertBody, alertLocalizationKey, alertLocalizationArgs),
            forKeys: .alertBody, .alertLocalizationKey, .alertLocalizationArgs)
        try c.encodeText(
            (title, titleLocalizationKey, titleLocalizationArgs),
            forKeys: .title, .titleLocalizationKey, .titleLocalizationArgs)
        try c.encodeText(
            (subtitle, subtitleLocalizationKey, subtitleLocalizationArgs),
            forKeys: .subtitle, .subtitleLocalizationKey, .subtitleLocalizationArgs)
        try c.encodeIfPresent(alertActionLocalizationKey, forKey: .alertActionLocalizationKey)
        try c.encodeIfPresent(alertLaunchImage, forKey: .alertLaunchImage)
        try c.encodeIfPresent(soundName, forKey: .soundName)
        if shouldBadge { try c.encode(true, forKey: .shouldBadge) }
        if shouldSendContentAvailable { try c.encode(true, forKey: .shouldSendContentAvailable) }
        if shouldSendMutableContent { try c.encode(true, forKey: .shouldSendMutableContent) }
        try c.encodeUnlessEmpty(desiredKeys, forKey: .desiredKeys)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(collapseIDKey, forKey: .collapseIDKey)
    }
}

/// One of the alert's texts (body, title, subtitle): the text itself, a localization key
/// and the record field names of its arguments.
private typealias LocalizableText = (text: String?, localizationKey: String?, localizationArgs: [String])

extension KeyedDecodingContainer {
    /// A text with its localization key (non-empty when present) and argument names
    /// (non-empty names; absent is empty).
    fileprivate func decodeText(_ text: Key, _ localizationKey: Key, _ localizationArgs: Key) throws -> LocalizableText {
        let value = try decodeIfPresent(String.self, forKey: text)
        let key = try decodeNonEmptyIfPresent(localizationKey)
        let arguments = try decodeNonEmptyStringsIfPresent(localizationArgs) ?? []
        return (value, key, arguments)
    }
}

extension KeyedEncodingContainer {
    /// A text, its localization key and its arguments, each omitted when unset.
    fileprivate mutating func encodeText(
        _ value: LocalizableText, forKeys text: Key, _ localizationKey: Key, _ localizationArgs: Key
    ) throws {
        try encodeIfPresent(value.text, forKey: text)
        try encodeIfPresent(value.localizationKey, forKey: localizationKey)
        try encodeUnlessEmpty(value.localizationArgs, forKey: localizationArgs)
    }

    fileprivate mutating func encodeUnlessEmpty(_ values: [String], forKey key: Key) throws {
        if !values.isEmpty { try encode(values, forKey: key) }
    }
}
