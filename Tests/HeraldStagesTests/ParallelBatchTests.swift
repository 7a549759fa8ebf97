@testable import HeraldStages
import Testing

@Suite("Parallel batch")
struct ParallelBatchTests {
    @Test("every element is mapped once and handed over in order", arguments: [0, 1, 7, 63, 64, 65, 1000], [1, 2, 4])
    func inOrder(count: Int, width: Int) async {
        for chunkSize in [1, 7, 64] {
            var seen: [(Int, String)] = []
            await ParallelBatch(chunkSize: chunkSize, width: width).forEach(Array(0..<count), map: { "v\($0)" }) { seen.append(($0, $1)) }
            #expect(seen.map(\.0) == Array(0..<count))
            #expect(seen.map(\.1) == (0..<count).map { "v\($0)" })
        }
    }
}
