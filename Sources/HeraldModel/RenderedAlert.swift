/// The alert text as Herald rendered it for the recipient's locale (Herald's own key
/// `rendered` in a notification): what the device would show.
public struct RenderedAlert: Sendable, Hashable, Codable {
    /// The localization used, as the app's bundle spells it (`fr`, `zh-Hans`, `iw`); the
    /// requested locale (`fr-FR`) when no text came from the localizations.
    public var locale: String
    public var title: String?
    public var subtitle: String?
    public var body: String?

    /// Creates a rendered alert.
    public init(locale: String, title: String? = nil, subtitle: String? = nil, body: String? = nil) {
        self.locale = locale
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    private enum CodingKeys: String, CodingKey { case locale, title, subtitle, body }

    /// Decodes; `locale` must be present and non-empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        locale = try c.decodeNonEmpty(.locale)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
        body = try c.decodeIfPresent(String.self, forKey: .body)
    }
}
