/// The one error type of `HeraldBenchmarks`: a benchmark that could not run or measured the
/// wrong thing (a baseline that disagrees, messages that did not arrive, a missing tool).
/// Its description is the message `herald bench` prints after `error: `.
public struct BenchmarkError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
