/// The one error type of `HeraldPayload`: a machine-readable code, a human reason and
/// where the problem was found.
///
/// Thrown for bad input only (a malformed `.strings` file, a stringsdict entry without an
/// `other` form, an invalid format string, …); the renderers never throw and never crash.
public struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is. An open set: new codes may be added later.
    public var code: Code
    /// A human-readable explanation, without the location.
    public var reason: String
    /// Where the problem was found (file, line, column, key); every part is optional.
    public var location: Location

    /// Creates an error.
    public init(_ code: Code, _ reason: String, at location: Location = Location()) {
        self.code = code
        self.reason = reason
        self.location = location
    }

    /// `where: reason [code]`, e.g. `fr.lproj/Localizable.strings:3:9: expected ';' [strings.syntax]`.
    public var description: String {
        let place = location.description
        return place.isEmpty ? "\(reason) [\(code.rawValue)]" : "\(place): \(reason) [\(code.rawValue)]"
    }
}

extension PayloadError {
    /// A stable, dotted error code such as `strings.syntax`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The dotted name, stable across releases.
        public var rawValue: String
        /// Wraps a dotted name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The dotted name.
        public var description: String { rawValue }

        /// The bytes of a localization file are not text in a supported encoding.
        public static let encoding = Code(rawValue: "strings.encoding")
        /// A `.strings` file breaks the grammar (missing `;`, `=`, value, unterminated string or comment).
        public static let stringsSyntax = Code(rawValue: "strings.syntax")
        /// A bad escape sequence in a `.strings` file (bad `\U`, lone surrogate).
        public static let stringsEscape = Code(rawValue: "strings.escape")
        /// A `.stringsdict` file is not a property list of the expected shape.
        public static let stringsdict = Code(rawValue: "stringsdict.invalid")
        /// A `.xcstrings` String Catalog is not JSON of the expected shape.
        public static let stringCatalog = Code(rawValue: "xcstrings.invalid")
        /// A format string has a bad specifier or inconsistent argument positions.
        public static let formatString = Code(rawValue: "format.invalid")
        /// A localization key has no entry in the development language.
        public static let missingKey = Code(rawValue: "localization.missingKey")
        /// A localization bundle could not be assembled (unknown file kind, bad folder name).
        public static let bundle = Code(rawValue: "localization.bundle")
        /// Even the smallest payload (`aps` and `ck.nid`) does not fit the byte limit.
        public static let payloadTooLarge = Code(rawValue: "payload.tooLarge")
        /// A match cannot become a notification (a query match without a reason, a readNotification).
        public static let invalidMatch = Code(rawValue: "payload.invalidMatch")
        /// A localization argument, desired key or collapse ID key names a field the record does not have.
        public static let missingField = Code(rawValue: "payload.missingField")
        /// A field whose type never goes into a payload (ASSETID, BYTES, their lists, a non-finite DOUBLE).
        public static let unsupportedField = Code(rawValue: "payload.unsupportedField")
        /// A field name that is not a valid CloudKit field name.
        public static let invalidFieldName = Code(rawValue: "payload.invalidFieldName")
        /// The collapse ID key's value cannot be an `apns-collapse-id` (empty, over 64 bytes).
        public static let collapseID = Code(rawValue: "payload.collapseID")
        /// The subscription badges but no badge count was given.
        public static let missingBadge = Code(rawValue: "payload.missingBadge")
    }

    /// Where a problem was found. Lines and columns are 1-based; columns count Unicode
    /// scalars for text files and UTF-16-independent characters of the format string.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The file, as a path relative to the localizations root, if known.
        public var file: String?
        /// The 1-based line, if the problem is tied to one.
        public var line: Int?
        /// The 1-based column, if the problem is tied to one.
        public var column: Int?
        /// The localization key (and variable or category path) concerned, if any.
        public var key: String?
        /// The notification-info property concerned, with its index for lists
        /// (`desiredKeys[1]`, `alertLocalizationArgs[0]`, `collapseIDKey`), if any.
        public var property: String?

        /// Creates a location; every part is optional.
        public init(file: String? = nil, line: Int? = nil, column: Int? = nil, key: String? = nil,
                    property: String? = nil) {
            self.file = file
            self.line = line
            self.column = column
            self.key = key
            self.property = property
        }

        /// `file:line:column`, then `key "…"`, then the property, omitting what is unknown.
        public var description: String {
            var parts: [String] = []
            var head = file ?? ""
            if let line {
                head += head.isEmpty ? "line \(line)" : ":\(line)"
                if let column { head += head.hasPrefix("line ") ? ", column \(column)" : ":\(column)" }
            }
            if !head.isEmpty { parts.append(head) }
            if let key { parts.append("key \"\(key)\"") }
            if let property { parts.append(property) }
            return parts.joined(separator: ": ")
        }
    }
}
