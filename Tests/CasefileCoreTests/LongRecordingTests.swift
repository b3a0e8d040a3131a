import CasefileCore
import Testing

/// A recording long enough that its events are redacted, its chains worked out and its failures written in two halves
/// at once: 1,100 requests failing one after another, two seconds apart, each 0.3 s after a tap on "Retry", each URL
/// holding a token.
@Suite struct LongRecordingTests {
    static let failures = 1_100

    static func recording() throws -> Report {
        var touches: [String] = []
        var responses: [String] = []
        for number in 1...failures {
            let time = 2.0 * Double(number)
            for phase in ["Began", "Ended"] {
                touches.append(
                    #"{"type":"\#(phase)","timestamp":\#(time - 0.3),"touches":[{"tapCount":1,"#
                        + #""locationInWindow":{"x":100,"y":100}}]}"#)
            }
            responses.append(
                #"{"timestamp":\#(time),"label":"DidReceiveResponse","properties":[{"class":"NSHTTPURLResponse","#
                    + #""URL":"https:\/\/api.shop.example\/v1\/items\/\#(number)?token=s3cr3t\#(number)x","#
                    + #""statusCode":500,"allHeaderFields":{}}]}"#)
        }
        let screen =
            #"{"timestamp":0,"view":{"class":"ShopApp.ItemsView","properties":{"frame":{"x":0,"y":0,"width":375,"#
            + #""height":667}},"subviews":[{"class":"UIButton","properties":{"frame":{"x":0,"y":0,"width":375,"#
            + #""height":667},"text":"Retry"},"subviews":[]}]}}"#
        return try WrittenRecording.report(modules: [
            "module_view.json": [screen], "module_interaction.json": touches, "module_network.json": responses,
        ])
    }

    @Test func eachFailureIsChainedToItsOwnTap() throws {
        let report = try Self.recording()
        let chains = report.correlation.chains
        try #require(chains.count == Self.failures)
        for (index, chain) in chains.enumerated() {
            let time = 2.0 * Double(index + 1)
            #expect(chain.exchange.time == time)
            // The template keeps the query's keys, not their values.
            #expect(chain.exchange.template == "/v1/items/{id}?token")
            #expect(chain.trigger?.time == time - 0.3, "the failure at \(time) s")
            #expect(chain.trigger?.label == "Retry")
        }
        // The steps end at the last failure, named by its template.
        #expect(report.correlation.steps.last?.text.hasPrefix("/v1/items/{id}?token fails") == true)
        // Every failed request is fingerprinted.
        #expect(report.failures.count == Self.failures)
    }

    @Test func everyTokenIsMasked() throws {
        let report = try Self.recording()
        var urls = 0
        for event in report.timeline.events {
            guard case .network(let exchange) = event.kind, let url = exchange.url else { continue }
            urls += 1
            #expect(!url.contains("s3cr3t"), "\(url)")
            #expect(url.contains("token="))
        }
        #expect(urls == Self.failures)
    }

    @Test func theSummaryListsTheFailuresInOrderBeforeTheRest() throws {
        let markdown = ReportSummary().render(try Self.recording())
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let times = lines.filter { $0.hasPrefix("  - at: tap ") }
        #expect(times.count == Self.failures)
        #expect(times.first?.contains("failure 2.0") == true)
        #expect(times.last?.contains("failure 2200.0") == true)
        let sections = lines.filter { $0.hasPrefix("## ") }
        #expect(sections.first == "## What went wrong")
        #expect(sections.contains("## Repro steps"))
        #expect(sections.contains("## Timeline"))
        let wentWrong = try #require(lines.firstIndex(of: "## What went wrong"))
        let steps = try #require(lines.firstIndex(of: "## Repro steps"))
        #expect(wentWrong < lines.firstIndex { $0.hasPrefix("  - at: tap ") } ?? 0)
        #expect(steps > lines.lastIndex { $0.hasPrefix("  - at: tap ") } ?? .max)
    }
}
