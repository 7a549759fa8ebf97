import ArgumentParser
import HeraldBenchmarks

extension BenchCommand {
    /// `herald bench payload`.
    struct Payload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Notifications composed per second (small, typical, oversized) versus only encoding them (same run).")

        @Option(help: "Notifications per measurement. Default: calibrated to about 2 s per row.")
        var count: Int?

        @Option(help: "Measure only these shapes (small, typical, oversized; repeatable), e.g. to profile one. Default: all.")
        var shape: [String] = []

        @OptionGroup var output: BenchOutputOptions

        func run() async throws {
            try await runBenchmark(output) {
                if let count, count < 1 { throw CommandFailure.invalidInput("--count must be at least 1") }
                for name in shape where !PayloadBenchmark.shapeNamesInOrder.contains(name) {
                    throw CommandFailure.invalidInput(
                        "--shape \(name): expected one of \(PayloadBenchmark.shapeNamesInOrder.joined(separator: ", "))")
                }
                return try PayloadBenchmark(count: count, shapes: shape.isEmpty ? nil : Set(shape)).report()
            }
        }
    }
}
