import Synchronization
import Testing
@testable import HeraldKafka

@Suite("Queue space signal", .timeLimit(.minutes(5)))
struct QueueSpaceSignalTests {
    @Test("a wait ends on a signal, or on its timeout when none comes")
    func endsOnSignalOrTimeout() async {
        let signal = QueueSpaceSignal()
        let done = Flag()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await signal.wait(timeout: .seconds(50))  // longer than the suite's limit: only a signal ends it
                done.value.store(true, ordering: .releasing)
            }
            while !done.value.load(ordering: .acquiring) {
                signal.signal()  // a signal before the wait registers is lost; the next one is not
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        await signal.wait(timeout: .milliseconds(1))  // nobody signals: the timeout releases it
    }

    @Test("many concurrent waits racing signals and timeouts all finish")
    func concurrentWaitsFinish() async {
        let signal = QueueSpaceSignal()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { await signal.wait(timeout: .microseconds(index % 7 * 50)) }
                if index % 3 == 0 { group.addTask { signal.signal() } }
            }
        }
    }
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
