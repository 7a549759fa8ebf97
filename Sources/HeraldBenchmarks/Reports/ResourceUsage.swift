#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time (user + system, all threads: `getrusage(RUSAGE_SELF)`) and heap allocations of
/// this process, read before and after a measured phase. The embedded broker runs in the
/// same process, so its work is counted too — for Herald and its baselines alike.
struct ResourceUsage: Sendable {
    var cpuSeconds: Double
    /// Allocation calls so far; nil when no allocation counter is loaded (see `AllocationCounter`).
    var allocations: Int?

    /// The usage so far.
    static func now(_ counter: AllocationCounter?) -> ResourceUsage {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), allocations: counter?.allocations())
    }

    /// What was used between `start` and this reading.
    func since(_ start: ResourceUsage) -> ResourceUsage {
        let allocations = self.allocations.flatMap { now in start.allocations.map { now - $0 } }
        return ResourceUsage(cpuSeconds: cpuSeconds - start.cpuSeconds, allocations: allocations)
    }

    /// CPU microseconds per unit of work (`count` changes).
    func cpuMicroseconds(per count: Int) -> Double { count > 0 ? cpuSeconds * 1e6 / Double(count) : 0 }

    /// Allocations per unit of work; nil without a counter.
    func allocations(per count: Int) -> Double? { allocations.map { count > 0 ? Double($0) / Double(count) : 0 } }
}
