import HeraldModel
import HeraldPush
import Testing

/// `HandledSequences` against the plain set of what was marked: a copy (a sequence marked
/// before) is recognized, a notification arriving late (a gap) never is, and the state stays
/// one number while notifications arrive in order.
@Suite("Push state: handled sequences")
struct HandledSequencesTests {
    @Test("in order: one number, copies recognized")
    func inOrder() {
        var handled = HandledSequences()
        for sequence in Int64(5)...200 {
            let inserted = handled.insert(sequence)
            #expect(inserted)
        }
        #expect(handled.through == 200 && handled.above.isEmpty)
        #expect(handled.contains(7) && handled.contains(200) && !handled.contains(201))
        let again = handled.insert(150)
        #expect(!again)
        #expect(handled.contains(3), "the first sequence marked stands for those before it")
    }

    @Test("random arrivals with late ones and copies: the same answers as the set of those marked", arguments: 0..<8)
    func againstSet(seed: Int) {
        var random = SplitMix64(seed: "handled-\(seed)")
        var handled = HandledSequences()
        var marked = Set<Int64>()
        var first: Int64?
        var next: Int64 = 10
        var late: [Int64] = []
        func arrive(_ sequence: Int64) {
            let new = !marked.contains(sequence) && sequence > (first ?? .min)
            #expect(handled.contains(sequence) == !new, "seed \(seed): \(sequence) before it is marked")
            let inserted = handled.insert(sequence)
            #expect(inserted == new, "seed \(seed): \(sequence)")
            #expect(handled.contains(sequence))
            if first == nil { first = sequence }
            marked.insert(sequence)
            #expect(handled.above.count <= HandledSequences.limit)
        }
        for _ in 0..<3_000 {
            // A late one arrives within 40 sequences of its place (the limit is not reached).
            if let oldest = late.first, next - oldest > 40 || random.next() % 10 == 0 {
                arrive(late.removeFirst())
                continue
            }
            switch random.next() % 10 {
            case 0 where !marked.isEmpty:
                arrive(marked.randomElement(using: &random)!)  // a copy
            case 1:
                late.append(next)  // held back: arrives later, after higher ones
                next += 1
            default:
                arrive(next)
                next += 1
            }
        }
        for sequence in late { arrive(sequence) }
        #expect(handled.above.isEmpty && handled.through == next - 1, "seed \(seed): \(handled)")
    }

    @Test("a gap that never fills keeps the newest marks, and the gap itself is never taken for handled")
    func permanentGap() {
        var handled = HandledSequences()
        handled.insert(1)
        for sequence in Int64(3)...500 { handled.insert(sequence) }
        #expect(handled.through == 1)
        #expect(handled.above.count == HandledSequences.limit)
        #expect(handled.above.first == 500 - Int64(HandledSequences.limit) + 1)
        #expect(!handled.contains(2))
        #expect(handled.contains(500) && !handled.contains(100), "older marks are forgotten, not the gap")
        let filled = handled.insert(2)
        #expect(filled)
        #expect(handled.through == 2)
    }

    @Test("written and read back as JSON")
    func wire() throws {
        var handled = HandledSequences()
        handled.insert(4)
        handled.insert(7)
        let codec = WireCodec()
        #expect(String(decoding: try codec.encodeWithFoundation(handled), as: UTF8.self) == #"{"above":[7],"through":4}"#)
        #expect(try codec.decode(HandledSequences.self, from: try codec.encodeWithFoundation(handled)) == handled)
        #expect(String(decoding: try codec.encodeWithFoundation(HandledSequences()), as: UTF8.self) == #"{"above":[]}"#)
    }
}
