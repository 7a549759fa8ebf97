import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

@testable import HeraldReader

/// The count limit against an oracle: random batches of sparse, increasing sequences (and
/// replays) into a few streams under a small `maxCount`. After every batch each stream keeps
/// exactly its newest `maxCount` sequences above everything removed, and the batch reports
/// each grown stream's newest sequence — whether or not the store ran the count query (it
/// skips it while `latest − mark` is within the limit).
@Suite("Retention: the count limit against an oracle")
struct StoreCountLimitPropertyTests {
    typealias F = ReaderFixtures

    @Test("random sparse batches and replays", arguments: 0..<4)
    func againstOracle(seed: UInt64) async throws {
        var random = SplitMix64(seed: 40 + seed)
        let maxCount = Int.random(in: 1...6, using: &random)
        let store = try F.memoryStore(retention: RetentionPolicy(maxCount: maxCount, maxAge: .seconds(86_400)))
        let users = ["_u1", "_u2", "_u3"]
        var next: [String: Int64] = [:]
        var retained: [String: [Int64]] = [:]
        var sent: [String: [Int64]] = [:]
        for _ in 0..<60 {
            var batch: [HeraldNotification] = []
            var expectedLatest: [String: Int64] = [:]
            for user in users where Bool.random(using: &random) {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    // Sparse: a user's sequence runs across containers in compose.
                    let sequence = (next[user] ?? 0) + Int64.random(in: 1...3, using: &random)
                    next[user] = sequence
                    batch.append(F.notification(user, sequence))
                    sent[user, default: []].append(sequence)
                    retained[user, default: []].append(sequence)
                    expectedLatest[user] = sequence
                }
                if let old = sent[user]?.randomElement(using: &random), Bool.random(using: &random) {
                    batch.append(F.notification(user, old))  // a replay: stored or pruned, never stored again
                }
            }
            let changes = try await store.apply(StoreBatch(notifications: batch))
            for user in users {
                retained[user] = Array((retained[user] ?? []).suffix(maxCount))
                let stored = try await F.fetchAll(store, user).notifications.map(\.sequence)
                #expect(stored == retained[user] ?? [], "seed \(seed), \(user), maxCount \(maxCount)")
                let grown = changes.grownStreams[StreamID(recipient: user, container: F.container)]
                #expect(grown == expectedLatest[user], "seed \(seed), \(user)")
            }
        }
    }
}
