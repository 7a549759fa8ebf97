import HeraldReader
import Testing

@testable import HeraldAPI

@Suite("Stream notifier", .timeLimit(.minutes(5)))
struct StreamNotifierTests {
    static let alice = StreamID(recipient: "_u1", container: "iCloud.x")
    static let bob = StreamID(recipient: "_u2", container: "iCloud.x")

    @Test("growth before a wait is kept; many signals coalesce into one wake (bounded memory)")
    func coalesces() async throws {
        let notifier = StreamNotifier()
        let listener = try #require(notifier.listen(to: Self.alice, limit: 10))
        for _ in 0..<1000 { notifier.streamsGrew([Self.alice]) }
        #expect(listener.isPending)
        #expect(await listener.wait(timeout: .seconds(5)) == .grew)
        #expect(await listener.wait(timeout: .milliseconds(20)) == .timedOut)
        listener.close()
    }

    @Test("only listeners of the grown streams wake")
    func onlyGrownStreams() async throws {
        let notifier = StreamNotifier()
        let a = try #require(notifier.listen(to: Self.alice, limit: 10))
        let b = try #require(notifier.listen(to: Self.bob, limit: 10))
        let a2 = try #require(notifier.listen(to: Self.alice, limit: 10))
        notifier.streamsGrew([Self.alice, StreamID(recipient: "_u3", container: "iCloud.x")])
        #expect(a.isPending && a2.isPending && !b.isPending)
        #expect(notifier.openStreams == 3)
        a.close()
        b.close()
        a2.close()
        #expect(notifier.openStreams == 0)
    }

    @Test("a waiting listener wakes when its stream grows")
    func wakesWaiter() async throws {
        let notifier = StreamNotifier()
        let listener = try #require(notifier.listen(to: Self.alice, limit: 10))
        async let woken = listener.wait(timeout: .seconds(30))
        // Signal until the waiter has taken it (it may not be waiting yet).
        while listener.isPending == false {
            notifier.streamsGrew([Self.alice])
            try await Task.sleep(for: .milliseconds(5))
            if listener.isPending { break }
        }
        #expect(await woken == .grew)
        listener.close()
    }

    @Test("finish closes waiting listeners and refuses new ones; close is idempotent")
    func finish() async throws {
        let notifier = StreamNotifier()
        let listener = try #require(notifier.listen(to: Self.alice, limit: 10))
        async let woken = listener.wait(timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(10))
        notifier.finish()
        #expect(await woken == .closed)
        #expect(await listener.wait(timeout: .seconds(30)) == .closed)
        listener.close()
        #expect(notifier.openStreams == 0)
        #expect(notifier.listen(to: Self.alice, limit: 10) == nil)
    }

    @Test("the limit counts open listeners")
    func limit() throws {
        let notifier = StreamNotifier()
        let first = try #require(notifier.listen(to: Self.alice, limit: 1))
        #expect(notifier.listen(to: Self.bob, limit: 1) == nil)
        first.close()
        #expect(notifier.listen(to: Self.bob, limit: 1) != nil)
    }

    @Test("growth racing the heartbeat timer is never lost")
    func growthRacingTimeout() async throws {
        let notifier = StreamNotifier()
        let listener = try #require(notifier.listen(to: Self.alice, limit: 10))
        // 3,000 rounds: each timeout from 0 to 99 µs thirty times (10,000 took 85 s of a
        // loaded `make test`, most of the suite's time).
        for round in 0..<3_000 {
            async let wake = listener.wait(timeout: .microseconds(round % 100))
            notifier.streamsGrew([Self.alice])
            let result = await wake
            // Either this wait saw the growth, or the flag is still up for the next one.
            #expect(result == .grew || listener.isPending, "round \(round): \(result)")
            if listener.isPending { #expect(await listener.wait(timeout: .seconds(5)) == .grew) }
        }
        listener.close()
    }

    @Test("a cancelled wait returns closed without closing the listener")
    func cancellation() async throws {
        let notifier = StreamNotifier()
        let listener = try #require(notifier.listen(to: Self.alice, limit: 10))
        let task = Task { await listener.wait(timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(10))
        task.cancel()
        #expect(await task.value == .closed)
        #expect(!listener.isClosed)
        notifier.streamsGrew([Self.alice])
        #expect(await listener.wait(timeout: .seconds(5)) == .grew)
        listener.close()
    }
}
