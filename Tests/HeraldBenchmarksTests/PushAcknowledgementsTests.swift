import Foundation
import Logging
import Testing

@testable import HeraldBenchmarks

@Suite("bench push: acknowledgements matched to notifications, and the report")
struct PushAcknowledgementsTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func eachAnswerIsTimedFromItsNotificationsProduce() {
        let ledger = PushAcknowledgements()
        ledger.produced(["a", "b"], expected: 1, at: at(0))
        ledger.produced(["c"], expected: 1, at: at(10))
        ledger.answered("b", status: 200, at: at(4))
        ledger.answered("c", status: 200, at: at(13))
        #expect(ledger.progress == (answered: 2, expected: 3))
        ledger.answered("a", status: 200, at: at(20))
        #expect(ledger.progress == (answered: 3, expected: 3))
        let phase = ledger.finish()
        #expect(phase.latencies.sorted() == [.milliseconds(3), .milliseconds(4), .milliseconds(20)])
        #expect(phase.notifications == 3 && phase.acknowledged == 3 && phase.isComplete)
        // From the first produce to the last acknowledgement: 3 pushes in 20 ms.
        #expect(abs(phase.rate - 150) < 0.001)
    }

    @Test func answersPastEachDeviceOfTheRecipientAreRepeatsAndUnknownIDsUnmatched() {
        let ledger = PushAcknowledgements()
        ledger.produced(["a"], expected: 2, at: at(0))
        ledger.answered("a", status: 200, at: at(1))
        ledger.answered("a", status: 410, at: at(2))
        ledger.answered("a", status: 200, at: at(3))
        ledger.answered("elsewhere", status: 200, at: at(4))
        ledger.answered(nil, status: 200, at: at(5))
        let phase = ledger.finish()
        #expect(phase.acknowledged == 1 && phase.refused == 1 && phase.repeated == 1 && phase.unmatched == 2)
        #expect(phase.expected == 2 && phase.isComplete)
        #expect(phase.latencies == [.milliseconds(1)])
    }

    @Test func finishingAPhaseForgetsItsNotifications() {
        let ledger = PushAcknowledgements()
        ledger.produced(["warm"], expected: 1, at: at(0))
        _ = ledger.finish()
        ledger.produced(["x"], expected: 1, at: at(50))
        ledger.answered("warm", status: 200, at: at(51))
        ledger.answered("x", status: 200, at: at(60))
        let phase = ledger.finish()
        #expect(phase.unmatched == 1 && phase.acknowledged == 1)
        #expect(phase.latencies == [.milliseconds(10)])
        #expect(ledger.finish().notifications == 0)
    }

    @Test func reportsStageLevelNumbersUnderTheIssuesKeysAndTheClientsBesideThem() throws {
        let benchmark = PushBenchmark(pushes: 10, concurrency: 2, connections: 1, pacedSeconds: 1, logger: Logger(label: "test"))
        let client = PushLoad.Result(seconds: 1, latencies: Array(repeating: .milliseconds(2), count: 30_000), failures: 0)
        let baseline = PushLoad.Result(seconds: 1, latencies: Array(repeating: .milliseconds(1), count: 40_000), failures: 0)
        let paced = PushLoad.Result(seconds: 1, latencies: [.milliseconds(3)], failures: 0)
        var report = PushReport(benchmark: benchmark, client: client, baseline: baseline, paced: paced, pacedRate: 15_000)
        #expect(!report.rateTargetMet && !report.latencyTargetMet)

        let ledger = PushAcknowledgements()
        ledger.produced((0..<100).map(String.init), expected: 1, at: at(0))
        for id in 0..<100 { ledger.answered(String(id), status: 200, at: at(5)) }
        let maximum = ledger.finish()
        ledger.produced(["p"], expected: 1, at: at(100))
        ledger.answered("p", status: 200, at: at(140))
        let pacedPhase = ledger.finish()
        var settings = PushStageRun.Settings()
        settings.notifications = 100
        report.add(
            PushStageRun.Outcome(maximum: maximum, cpuSeconds: 0.01, paced: pacedPhase, pacedTarget: 10_000), settings: settings)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        func close(_ key: String, _ value: Double) -> Bool { abs((json[key] as? Double ?? .nan) - value) < 0.01 }
        #expect(close("pushes_per_s", 20_000))
        #expect(close("p99_ms", 40))
        #expect(json["baseline_per_s"] as? Double == 40_000)
        #expect(json["client_pushes_per_s"] as? Double == 30_000)
        #expect(json["client_p99_ms"] as? Double == 3)
        #expect(close("cpu_us_per_push", 100))
        #expect(json["rate_target_met"] as? Bool == true)
        #expect(json["latency_target_met"] as? Bool == true)
        #expect(json["repeated_pushes"] as? Int == 0)
    }

    @Test func withoutTheStageLevelRunItsKeysAreNullAndNoTargetIsMet() throws {
        let benchmark = PushBenchmark(pushes: 10, concurrency: 2, connections: 1, pacedSeconds: 1, logger: Logger(label: "test"))
        let fast = PushLoad.Result(seconds: 1, latencies: Array(repeating: .milliseconds(1), count: 30_000), failures: 0)
        let report = PushReport(benchmark: benchmark, client: fast, baseline: fast, paced: fast, pacedRate: 15_000)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(json["pushes_per_s"] is NSNull)
        #expect(json["p99_ms"] is NSNull)
        #expect(json["client_pushes_per_s"] as? Double == 30_000)
        #expect(json["rate_target_met"] as? Bool == false)
    }
}
