/// What Herald knows of a user: the value of the compacted topic `users`, keyed by
/// `userRecordName`, published by the app's backend. The compose stage renders a user's
/// notifications in `locale`; schedules follow `timeZone` (a null value forgets the user).
///
/// ```json
/// {"userRecordName": "_u1", "locale": "fr-CA", "timeZone": "America/Montreal"}
/// ```
public struct UserProfile: Sendable, Hashable, Codable {
    public var userRecordName: String
    /// A BCP 47 language tag, e.g. `fr-CA`; absent: the development language.
    public var locale: String?
    /// An IANA time zone identifier, e.g. `Europe/Paris`; absent: UTC.
    public var timeZone: String?

    public init(userRecordName: String, locale: String? = nil, timeZone: String? = nil) {
        self.userRecordName = userRecordName
        self.locale = locale
        self.timeZone = timeZone
    }

    /// The Kafka key: the user record name.
    public var partitionKey: String { userRecordName }

    private enum CodingKeys: String, CodingKey { case userRecordName, locale, timeZone }

    /// Decodes and validates: a non-empty user; locale and time zone non-empty when present.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        userRecordName = try c.decodeNonEmpty(.userRecordName)
        locale = try c.decodeNonEmptyIfPresent(.locale)
        timeZone = try c.decodeNonEmptyIfPresent(.timeZone)
    }
}
