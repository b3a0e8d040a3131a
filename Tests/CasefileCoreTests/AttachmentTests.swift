import CasefileCore
import Foundation
import Testing

/// An app log zipped beside a recording (`Tests/Fixtures/Attachments/checkout-with-log.zip`, written by
/// `Scripts/make-chain-fixtures.py`): its lines land on the recording clock from `Info/info_session.json`
/// ("recordingStart": 13:02:00.000) and an error logged after the failed request follows its chain.
@Suite struct AttachmentTests {
    private func report() throws -> Report {
        let path = Samples.repository.appendingPathComponent("Tests/Fixtures/Attachments/checkout-with-log.zip").path
        let output = try Triage().reports(at: path)
        #expect(output.notes.isEmpty)
        return try #require(output.reports.count == 1 ? output.reports.first : nil)
    }

    @Test func logLinesLandOnTheRecordingClock() throws {
        let report = try report()
        let logs: [(Double, LogLine)] = report.timeline.events.compactMap { event in
            if case .log(let line) = event.kind { (event.timestamp, line) } else { nil }
        }
        try #require(logs.count == 4)
        // 13:01:58.500 is 1.5 s before the recording started; 13:02:13.160 is 13.16 s after.
        #expect(abs(logs[0].0 - -1.5) < 1e-9)
        #expect(abs(logs[1].0 - 12.49) < 1e-9)
        #expect(abs(logs[2].0 - 13.16) < 1e-9)
        #expect(abs(logs[3].0 - 13.17) < 1e-9)
        #expect(logs[0].1.level == .info)
        #expect(logs[0].1.context == "App-🚀")
        #expect(logs[0].1.function == "AppDelegate.application(_:didFinishLaunchingWithOptions:)")
        #expect(logs[0].1.sourceLine == 42)
        #expect(logs[0].1.message == "Launched 2.3.1 (412)")
        #expect(logs[2].1.level == .error)
        #expect(logs[2].1.message == "POST /v1/orders failed: 500 payment_gateway_unavailable\n  request_id r-7f3a9c")
        #expect(logs[3].1.level == .warning)
        let event = try #require(report.timeline.events.first { $0.kindName == "log" })
        #expect(event.file == "app.log")
        #expect(event.line == 1)
    }

    @Test func anErrorLoggedAfterTheFailureFollowsItsChain() throws {
        let chain = try #require(try report().correlation.chains.first)
        #expect(chain.trigger?.label == "Pay now")
        let followUp = try #require(chain.followUps.first)
        #expect(followUp.kind == .errorLog)
        #expect(
            followUp.description == "error logged 0.01 s later: POST /v1/orders failed: 500 payment_gateway_unavailable"
        )
    }

    @Test func theSummaryShowsTheLog() throws {
        let text = ReportSummary().render(try report())
        #expect(
            text.contains(
                #"  - then: error logged 0.01 s later: POST /v1/orders failed: 500 payment\_gateway\_unavailable"#))
        #expect(text.contains(#"| 13.160 s | **Log error** | \[Network-🌐\] `APIClient.handle(_:):131`"#))
        #expect(text.contains("    Note over App: 13.160 s error logged: POST /v1/orders failed: 500"))
    }
}
