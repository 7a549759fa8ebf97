import HeraldModel

/// The size rules a push payload obeys (docs/cloudkit-behaviour.md §4, §5).
///
/// The defaults are APNs' and CloudKit's: 4096 bytes for a normal push, 5120 for VoIP
/// (APNs answers 413 `PayloadTooLarge` above that), string values of localization
/// arguments and desired keys cut to 100 characters, collapse IDs of at most 64 bytes.
public struct PayloadLimits: Sendable, Hashable {
    /// APNs' limit for alert and background pushes, in bytes.
    public static let standardMaxBytes = 4096
    /// APNs' limit for VoIP pushes, in bytes.
    public static let standardVoIPMaxBytes = 5120
    /// CloudKit's cut for string values in desired keys and localization arguments, in characters.
    public static let standardValueCharacters = 100

    /// The largest encoded payload of an alert or background push, in UTF-8 bytes. Default 4096.
    public var maxBytes: Int
    /// The largest encoded payload of a VoIP push, in UTF-8 bytes. Default 5120.
    public var voipMaxBytes: Int
    /// String values of localization arguments and desired keys longer than this many
    /// characters (grapheme clusters) are cut to it. Default 100.
    public var maxValueCharacters: Int
    /// The longest `apns-collapse-id`, in UTF-8 bytes. Default 64 (`APNsPush.maxCollapseIDBytes`).
    public var maxCollapseIDBytes: Int

    /// The APNs and CloudKit defaults.
    public init() {
        self.init(maxBytes: Self.standardMaxBytes)
    }

    /// Limits with the given values; the others keep their defaults.
    public init(
        maxBytes: Int = PayloadLimits.standardMaxBytes, voipMaxBytes: Int = PayloadLimits.standardVoIPMaxBytes,
        maxValueCharacters: Int = PayloadLimits.standardValueCharacters,
        maxCollapseIDBytes: Int = APNsPush.maxCollapseIDBytes
    ) {
        self.maxBytes = maxBytes
        self.voipMaxBytes = voipMaxBytes
        self.maxValueCharacters = maxValueCharacters
        self.maxCollapseIDBytes = maxCollapseIDBytes
    }

    /// The byte limit of a VoIP (`voip == true`) or other push.
    public func maxBytes(voip: Bool) -> Int {
        voip ? voipMaxBytes : maxBytes
    }
}
