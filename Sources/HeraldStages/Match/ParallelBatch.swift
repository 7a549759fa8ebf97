import Foundation

/// Maps a batch on every core, in chunks, and hands the results to a body in the batch's
/// order as soon as a chunk and every chunk before it are mapped: the body (filing records in
/// a table under its lock) runs while later chunks are still being mapped (decoding and
/// compiling subscriptions). A subscription loader is CPU-bound in exactly this split
/// (README, matcher benchmark).
struct ParallelBatch {
    /// Elements per chunk: big enough that a task's overhead is small beside its work.
    var chunkSize = 64
    /// Chunks mapped at once; default: the cores available.
    var width = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Calls `body` with the index and mapped value of each element, in order.
    func forEach<Element: Sendable, Mapped: Sendable>(
        _ elements: [Element], map: @escaping @Sendable (Element) -> Mapped, body: (Int, Mapped) -> Void
    ) async {
        let chunks = stride(from: 0, to: elements.count, by: chunkSize).map { $0..<min(elements.count, $0 + chunkSize) }
        guard chunks.count > 1, width > 1 else {
            for (offset, element) in elements.enumerated() { body(offset, map(element)) }
            return
        }
        await withTaskGroup(of: (Int, [Mapped]).self) { group in
            var started = 0
            var next = 0
            var done: [Int: [Mapped]] = [:]
            while started < min(width, chunks.count) {
                let (number, slice) = (started, elements[chunks[started]])
                group.addTask { (number, slice.map(map)) }
                started += 1
            }
            while let (number, mapped) = await group.next() {
                done[number] = mapped
                if started < chunks.count {
                    let (number, slice) = (started, elements[chunks[started]])
                    group.addTask { (number, slice.map(map)) }
                    started += 1
                }
                while let mapped = done.removeValue(forKey: next) {
                    for (offset, value) in mapped.enumerated() { body(chunks[next].lowerBound + offset, value) }
                    next += 1
                }
            }
        }
    }
}
