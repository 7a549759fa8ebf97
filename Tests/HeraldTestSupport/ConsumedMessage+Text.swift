import HeraldKafka

extension ConsumedMessage {
    /// The value as UTF-8 text, `<null>` for a tombstone.
    public var text: String { value.map { String(decoding: $0, as: UTF8.self) } ?? "<null>" }
}
