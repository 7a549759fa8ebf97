extension Subscription {
    /// The longest subscription ID accepted from a user, in bytes of UTF-8. CloudKit documents
    /// no limit; 255 bytes keeps the compacted topic's keys and the notifications' `sid`
    /// small, as a record name's limit (255 ASCII characters) does.
    public static let maxIDBytes = 255

    /// Why `id` cannot be a subscription ID (empty, longer than `maxIDBytes` bytes of UTF-8,
    /// or holding a control character), or `nil` when it can.
    public static func problem(withID id: String) -> String? {
        if id.isEmpty { return "must not be empty" }
        let bytes = id.utf8.count
        if bytes > maxIDBytes { return "is \(bytes) bytes of UTF-8, more than the limit of \(maxIDBytes)" }
        if let scalar = id.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters (found U+\(String(scalar.value, radix: 16, uppercase: true)))"
        }
        return nil
    }
}
