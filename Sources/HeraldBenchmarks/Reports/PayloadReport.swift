import Foundation

/// What `herald bench payload` measured: one row per notification shape, and the typical
/// shape's compose + encode rate (the headline) at the top.
public struct PayloadReport: BenchmarkReport {
    public var rows: [PayloadBenchmark.Row]
    /// Notifications per second composed and encoded, typical shape (0 when not measured).
    public var typicalComposeEncode: Double
    /// The same per second of the measuring thread's CPU time (0 when not measured).
    public var typicalComposeEncodePerCPUSecond: Double

    enum CodingKeys: String, CodingKey {
        case rows = "shapes", typicalComposeEncode = "typical_compose_encode_per_s"
        case typicalComposeEncodePerCPUSecond = "typical_compose_encode_per_cpu_s"
    }

    /// A report of `rows`.
    public init(rows: [PayloadBenchmark.Row]) {
        self.rows = rows
        let typical = rows.first { $0.shape == "typical" }
        typicalComposeEncode = typical?.composedAndEncoded ?? 0
        typicalComposeEncodePerCPUSecond = typical?.composedAndEncodedPerCPUSecond ?? 0
    }

    public var table: String {
        var lines = [
            "Payload, one core, 64 distinct changes per shape cycled. small = body only; typical = title key + body key",
            "with 2 args + 3 desired keys + badge + sound, rendered in fr from an en/fr/de .strings catalog; oversized =",
            "~9 KB of texts pruned to 4096 bytes. compose = NotificationComposer.compose (values, localization, push",
            "encoded and fitted to the limit); + encode = also WireCodec-encode the full notification (what the compose",
            "stage writes); encode only = WireCodec-encode the already composed notification (the baseline, same run).",
            "",
            "| shape     | compose (notifications/s) | µs/notification | + encode (notifications/s) | encode only (notifications/s) | compose ÷ encode-only cost | push bytes | notification bytes | pruned |",
            "|-----------|--------------------------:|----------------:|---------------------------:|------------------------------:|---------------------------:|-----------:|-------------------:|:------:|",
        ]
        for row in rows {
            lines.append(String(
                format: "| %@ | %25.0f | %15.2f | %26.0f | %29.0f | %25.2f× | %10d | %18d | %@ |",
                row.shape.padding(toLength: 9, withPad: " ", startingAt: 0), row.composed, 1e6 / row.composed,
                row.composedAndEncoded, row.encodedOnly, ratio(row.encodedOnly, row.composed), row.payloadBytes,
                row.notificationBytes, row.pruned ? "yes" : "no"))
        }
        return lines.joined(separator: "\n")
    }
}

extension PayloadBenchmark {
    /// Measures every shape (`run()`).
    public func report() throws -> PayloadReport { PayloadReport(rows: try run()) }
}
