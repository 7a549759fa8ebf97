import Foundation

/// What one `herald bench …` run measured: the numbers of its table, printed either as that
/// Markdown table or (`--json`) as one JSON object whose keys are documented on each report's
/// `CodingKeys`, so scripts and CI read the same numbers the table shows.
public protocol BenchmarkReport: Encodable, Sendable {
    /// The Markdown table `herald bench …` prints without `--json`.
    var table: String { get }
}

extension BenchmarkReport {
    /// The report as one line of JSON, keys sorted.
    /// - Throws: `BenchmarkError` when a number is not finite (JSON has no NaN or infinity).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            throw BenchmarkError("cannot write the report as JSON: \(error)")
        }
    }
}

/// `part / whole`, or 0 when there is no whole to compare with (a baseline that measured
/// nothing), so a report never holds NaN or infinity.
func ratio(_ part: Double, _ whole: Double) -> Double {
    whole > 0 && whole.isFinite && part.isFinite ? part / whole : 0
}
