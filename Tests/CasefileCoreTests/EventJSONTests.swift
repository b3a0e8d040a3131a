import CasefileCore
import Foundation
import Testing

/// Each timeline event is stored as JSON (a line of its report's `event_details` blob, `Encodable`'s form with the
/// index's options) and the most frequent kinds are written field by field: the text must be byte for byte what
/// `JSONEncoder` writes with sorted keys and unescaped slashes, whatever fields are present.
@Suite struct EventJSONTests {
    /// Every event of every sample recording, loose and zipped.
    @Test func writesTheSampleRecordingsEventsAsJSONEncoderDoes() throws {
        let folder = Samples.repository.appendingPathComponent("SampleReports")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".clue") || $0.hasSuffix(".zip") }.sorted()
        var kinds: [String: Int] = [:]
        for name in names {
            let reports = try Triage().reports(at: folder.appendingPathComponent(name).path).reports
            for event in reports.flatMap(\.timeline.events) {
                #expect(try IndexJSON.text(event) == (try FoundationJSON.text(event)), "\(name)")
                kinds[event.kindName, default: 0] += 1
            }
        }
        // The four kinds written field by field are all among them.
        for kind in ["touch", "screen", "view", "network"] { #expect(kinds[kind, default: 0] > 0, "\(kind)") }
    }

    /// Every optional field absent and present, empty and full lists, and text that needs escapes.
    @Test func writesEveryFieldAsJSONEncoderDoes() throws {
        let odd = "say \"hi\"\\\t\n\u{1} é/ü"
        var failed = NetworkExchange(
            url: "https://api.shop.example/v1/pay?x=1", method: "POST", statusCode: 503, statusText: odd,
            mimeType: "application/json", responseHeaders: [HeaderField(name: "Retry-After", value: "120")],
            expectedContentLength: -1, responseAt: 3.25)
        failed.receivedBytes = 12
        failed.chunkCount = 2
        failed.undecodableChunks = 1
        failed.bodyPreview = "{\"error\":\"busy\"}"
        failed.endAt = 3.5
        failed.completed = true
        failed.error = TransportError(
            domain: "NSURLErrorDomain", code: -1001, description: odd, failingURL: "https://api.shop.example/")
        failed.redirectLocation = "/v2/pay"
        failed.redirectedFrom = "https://old.shop.example/pay"
        failed.isAmbiguous = true
        failed.requestAt = 1.0
        failed.requestHeaders = [
            HeaderField(name: "Authorization", value: "[redacted]"), HeaderField(name: "A", value: ""),
        ]
        failed.requestBody = "card=[redacted]"
        failed.requestSource = "Modules/module_network.json"
        let state = ScreenState(
            rootClass: "ShopApp.PayView", title: "Pay", labels: ["Total", odd], spinnerVisible: true, alert: "Oops")
        let kinds: [TimelineEvent.Kind] = [
            .network(NetworkExchange()),
            .network(failed),
            .touch(TouchEvent(phase: .began, rawPhase: "Began", touches: [])),
            .touch(
                TouchEvent(
                    phase: .unknown, rawPhase: odd,
                    touches: [TouchPoint(tapCount: 2, x: 187.5, y: -0.25), TouchPoint(tapCount: 0, x: 0, y: 1e21)],
                    target: TouchTarget(className: "UIButton", label: odd, path: ["UIWindow", "UIButton"]))),
            .touch(
                TouchEvent(
                    phase: .ended, rawPhase: "Ended", touches: [TouchPoint(tapCount: 1, x: 1, y: 2)],
                    target: TouchTarget(className: "UIView", label: nil, path: []))),
            .screen(
                ScreenChange(
                    fromClass: nil, toClass: "A", state: ScreenState(rootClass: "A", labels: [], spinnerVisible: false))
            ),
            .screen(ScreenChange(fromClass: "ShopApp.CartView", toClass: "ShopApp.PayView", state: state)),
            .viewUpdate(ViewUpdate(items: [], state: state)),
            .viewUpdate(
                ViewUpdate(
                    items: [
                        ViewChange(kind: .textChanged, className: "UILabel", text: odd, oldText: "$10"),
                        ViewChange(kind: .added, className: "UIAlertView"),
                    ], state: state)),
            // A kind left to `Encodable`.
            .log(LogLine(clock: "10:15:19.5", level: .error, context: "Pay", message: odd)),
        ]
        for kind in kinds {
            for (line, time) in [(nil, 0.0), (7, 2.050000083), (-1, 1_700_000_000.125)] {
                let event = TimelineEvent(
                    timestamp: time, timeIsRecorded: line != nil, file: odd, line: line, kind: kind)
                #expect(try IndexJSON.text(event) == (try FoundationJSON.text(event)), "\(event.kindName) \(time)")
            }
        }
    }

    /// A number JSON cannot hold is refused as `JSONEncoder` refuses it, not written.
    @Test func refusesNumbersJSONCannotHold() {
        let touch = TouchEvent(phase: .moved, rawPhase: "Moved", touches: [TouchPoint(tapCount: 1, x: .nan, y: 0)])
        let kinds: [TimelineEvent.Kind] = [.touch(touch), .network(NetworkExchange(responseAt: .infinity))]
        for kind in kinds {
            let event = TimelineEvent(timestamp: 1, file: "f", line: nil, kind: kind)
            #expect(throws: (any Error).self) { try IndexJSON.text(event) }
        }
        let late = TimelineEvent(
            timestamp: -.infinity, file: "f", line: 1,
            kind: .touch(TouchEvent(phase: .ended, rawPhase: "Ended", touches: [])))
        #expect(throws: (any Error).self) { try IndexJSON.text(late) }
    }
}
