import CasefileCore
import Foundation
import Testing

/// The hand-made recordings of `Tests/Fixtures/Chains` (written by `Scripts/make-chain-fixtures.py`, whose comments
/// describe each one): every chain a person reads in them is found, and none is invented.
@Suite struct ChainTests {
    private func report(_ name: String) throws -> Report {
        let path = Samples.repository.appendingPathComponent("Tests/Fixtures/Chains/\(name).clue").path
        let reports = try Triage().reports(at: path).reports
        return try #require(reports.count == 1 ? reports.first : nil)
    }

    private func events(_ report: Report, _ kind: String) -> [Int] {
        report.timeline.events.indices.filter { report.timeline.events[$0].kindName == kind }
    }

    @Test func backgroundRefreshHasNoTrigger() throws {
        let report = try report("background-refresh")
        let chains = report.correlation.chains
        // Two responses (cart 200 at 1.0 s, recommendations 500 at 5.0 s): one failure, one chain.
        try #require(chains.count == 1)
        let chain = chains[0]
        #expect(chain.trigger == nil)
        #expect(chain.exchange.time == 5.0)
        #expect(chain.exchange.status == 500)
        #expect(chain.exchange.url == "https://api.shop.example/v1/recommendations?user=8812")
        #expect(chain.exchange.template == "/v1/recommendations?user")
        #expect(chain.exchange.method == nil)
        #expect(chain.outcome.kind == .silent)
        #expect(chain.followUps.isEmpty)
        #expect(chain.evidence.contains("no touch in the 10 s before: background traffic"))
    }

    @Test func ofTwoTapsTheOneOnTheControlThatAnsweredTriggers() throws {
        let report = try report("two-taps")
        let chains = report.correlation.chains
        try #require(chains.count == 1)
        let chain = chains[0]
        let trigger = try #require(chain.trigger)
        // "Pay now" went up at 3.0 s; the tap on the "Cart" title at 3.4 s is nearer but not a control.
        #expect(trigger.time == 3.0)
        #expect(trigger.label == "Pay now")
        #expect(trigger.className == "UIButton")
        let touches = events(report, "touch")
        #expect(trigger.event == touches[1])  // Began 2.95, Ended 3.0, Began 3.35, Ended 3.4
        #expect(chain.exchange.time == 4.0)
        #expect(chain.outcome.kind == .alert)
        #expect(chain.outcome.time == 4.02)
        #expect(chain.outcome.description == "alert added: \"Payment failed — Please try again\"")
        #expect(chain.confidenceLevel == "high")
        #expect(chain.evidence.contains { $0.hasPrefix("the screen answered the tap 0.02 s later") })
        #expect(chain.evidence.contains("1 other tap in the window scored lower"))
    }

    @Test func aRetryThatSucceedsIsAFollowUpNotAChain() throws {
        let report = try report("retry-succeeds")
        let chains = report.correlation.chains
        try #require(chains.count == 1)
        let chain = chains[0]
        #expect(chain.exchange.status == 503)
        #expect(chain.exchange.time == 2.5)
        #expect(chain.trigger?.time == 2.0)
        #expect(chain.trigger?.label == "Pay now")
        #expect(chain.outcome.kind == .errorMessage)
        #expect(chain.outcome.description == "UILabel \"Couldn't reach the server\" shown")
        let retry = try #require(chain.followUps.first)
        #expect(chain.followUps.count == 1)
        #expect(retry.kind == .retrySucceeded)
        #expect(retry.time == 6.4)
        #expect(retry.description == "retried 3.9 s later: succeeded (200)")
    }

    @Test func aCrashAfterTheFailureFollowsIt() throws {
        let report = try report("crash-after-failure")
        let chain = try #require(report.correlation.chains.first)
        #expect(report.correlation.chains.count == 1)
        #expect(chain.trigger?.label == "Pay now")
        #expect(chain.exchange.template == "/v1/orders/{id}/pay")
        let crash = try #require(chain.followUps.first)
        #expect(crash.kind == .crash)
        #expect(crash.description == "crash at the end of the recording: NSInvalidArgumentException")
        // Clue writes the exception without a time: it sits at the recording's last time, 3.5 s.
        #expect(crash.time == 3.5)
        // The events before the crash: everything before it (six events: two touch phases, the 500, two screens…).
        let exception = try #require(events(report, "exception").first)
        #expect(report.correlation.beforeCrash == Array(0..<exception))
        #expect(report.correlation.steps.last?.text == "App crashes: NSInvalidArgumentException")
    }

    @Test func aSilentStuckSpinnerIsTheOutcome() throws {
        let report = try report("stuck-spinner")
        let chain = try #require(report.correlation.chains.first)
        #expect(report.correlation.chains.count == 1)
        #expect(chain.exchange.failure == "timeout")
        #expect(chain.exchange.time == 8.0)
        #expect(chain.trigger?.label == "Pay now")
        #expect(chain.trigger?.time == 1.0)
        #expect(chain.outcome.kind == .stuckSpinner)
        #expect(chain.outcome.description == "spinner still visible after 9.0 s, when the recording ends")
    }

    @Test func reproStepsNameTheControlsAndEndAtTheFailure() throws {
        let report = try report("two-taps")
        #expect(
            report.correlation.steps.map(\.text) == [
                "Open ShopApp.CartView \"Cart\"",
                "Tap \"Pay now\"",
                // UIKit does not deliver touches to a label (user interaction off): the tap lands on the root view.
                "Tap ShopApp.CartView",
                "/v1/orders fails: HTTP 500",
                "See alert added: \"Payment failed — Please try again\"",
            ])
    }

    @Test func stepsStopAtTheLastFailure() throws {
        let report = try report("retry-succeeds")
        // Pay now, the 503, the error label, Pay now again: the steps stop at the (only) failure and its outcome.
        #expect(
            report.correlation.steps.map(\.text) == [
                "Open ShopApp.CartView \"Cart\"",
                "Tap \"Pay now\"",
                "/v1/orders fails: HTTP 503",
                "See UILabel \"Couldn't reach the server\" shown",
            ])
    }

    /// An error logged after a failure is told by its message's first line, also when the message's lines end in CRLF
    /// (CRLF is one Character: split at Character "\n", the whole message was its first line).
    @Test(arguments: ["\n", "\r\n"]) func anErrorLogIsToldByItsFirstLine(_ lineEnd: String) throws {
        var failed = NetworkExchange(url: "https://api.example/v1/orders", statusCode: 500, responseAt: 4)
        failed.endAt = 4
        let message = "payment failed\(lineEnd)  request_id r-7f3a9c\(lineEnd)"
        let timeline = Timeline([
            TimelineEvent(timestamp: 4, file: "Modules/module_network.json", line: 1, kind: .network(failed)),
            TimelineEvent(
                timestamp: 4.5, file: "app.log", line: 1,
                kind: .log(LogLine(clock: "13:02:04.500", level: .error, context: nil, message: message))),
        ])
        let chain = try #require(Correlator().correlation(of: timeline).chains.first)
        #expect(chain.followUps.map(\.description) == ["error logged 0.5 s later: payment failed"])
    }

    @Test func repeatedTapsAreCompressed() {
        let next = TouchTarget(className: "UIButton", label: "Next", path: ["UIView", "UIButton"])
        func touch(_ time: Double, _ phase: TouchPhase) -> TimelineEvent {
            TimelineEvent(
                timestamp: time, file: "Modules/module_interaction.json", line: nil,
                kind: .touch(
                    TouchEvent(
                        phase: phase, rawPhase: phase.rawValue, touches: [TouchPoint(tapCount: 1, x: 10, y: 10)],
                        target: next)))
        }
        var failed = NetworkExchange(url: "https://api.example/v2/pages/3", statusCode: 404, responseAt: 4)
        failed.endAt = 4
        let timeline = Timeline(
            [
                touch(1.0, .began), touch(1.1, .ended), touch(2.0, .began), touch(2.1, .ended), touch(3.0, .began),
                touch(3.1, .ended),
                TimelineEvent(timestamp: 4, file: "Modules/module_network.json", line: 1, kind: .network(failed)),
            ])
        let correlation = Correlator().correlation(of: timeline)
        #expect(correlation.steps.map(\.text) == ["Tap \"Next\" ×3", "/v2/pages/{id} fails: HTTP 404"])
        #expect(correlation.steps.first?.events == [1, 3, 5])
        // The last tap (3.1 s) is the trigger: the three score alike and the nearest wins.
        #expect(correlation.chains.first?.trigger?.time == 3.1)
    }
}
