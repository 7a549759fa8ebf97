import Foundation

/// An automatic offset reset caused by a broker error (the committed or requested offset
/// was out of range: deleted by retention, or beyond the end).
///
/// librdkafka 2.0.2 reports such a reset only as a WARNING log line of facility `OFFSET`
/// (`rd_kafka_offset_reset`: "<topic> [<partition>]: offset reset (at offset <o>, broker <b>)
/// to <logical>: <reason>: <error>"); resets without an error (a new group) are debug lines.
/// Herald turns that line into a `ConsumerEvent.offsetOutOfRange` so data loss is never silent.
struct OffsetResetReport: Sendable, Equatable {
    var partition: TopicPartition
    var offset: Int64
    var reason: String
}

extension OffsetResetReport {
    /// Parses the log line; `nil` for every other line.
    init?(facility: String, level: Int32, text: String) {
        guard facility == "OFFSET", level <= 4, let marker = text.range(of: "]: offset reset (at offset ") else { return nil }
        var head = text[..<marker.lowerBound]
        if head.hasPrefix("[thrd:"), let end = head.range(of: "]: ") { head = head[end.upperBound...] }
        guard let open = head.range(of: " [", options: .backwards),
              let partition = Int32(head[open.upperBound...]) else { return nil }
        let rest = text[marker.upperBound...]
        let offsetText = rest.prefix { $0 != "," && $0 != ")" }
        self.init(
            partition: TopicPartition(String(head[..<open.lowerBound]), partition),
            offset: Int64(offsetText) ?? -1,
            reason: text)
    }
}
