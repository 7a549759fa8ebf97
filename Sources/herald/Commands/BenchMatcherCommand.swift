import ArgumentParser
import Foundation
import HeraldBenchmarks
import Logging

extension BenchCommand {
    /// `herald bench matcher`.
    struct Matcher: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Changes matched per second against 1k…1M subscriptions, indexed versus scanning all (same run).")

        @Option(help: "Subscription counts, comma-separated.")
        var sizes = "1000,10000,100000,1000000"

        @Option(help: "Changes matched per size (the scan baseline uses fewer at large sizes).")
        var changes = 100_000

        @Option(help: "Largest size also measured by scanning every subscription (the baseline).")
        var scanLimit = 100_000

        @Option(help: "Subscriptions the match stage's loader reads from the embedded broker (load_1m_seconds scales to a million; 0: skip).")
        var loadSubscriptions = 1_000_000

        @OptionGroup var output: BenchOutputOptions

        func run() async throws {
            try await runBenchmark(output) {
                let counts = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
                    throw CommandFailure.invalidInput("--sizes expects positive numbers, e.g. 1000,10000,100000")
                }
                guard loadSubscriptions >= 0 else { throw CommandFailure.invalidInput("--load-subscriptions expects 0 or more") }
                return try await MatcherBenchmark(changes: changes, scanLimit: scanLimit)
                    .report(sizes: counts, load: loadSubscriptions, logger: Logger(label: "herald.bench"))
            }
        }
    }
}
