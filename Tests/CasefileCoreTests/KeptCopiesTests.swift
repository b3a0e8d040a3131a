import CasefileCore
import Testing

/// Of copies of a report in one input, the one the index keeps: the most complete, the first of equals, in the order
/// each report first appears.
@Suite struct KeptCopiesTests {
    /// Report `id` from entry `root`, holding `events` timeline events (its completeness).
    static func report(_ id: String, _ root: String, events: Int) -> Report {
        Report(
            id: id, format: .clue, source: ReportSource(input: "inbox/archive.zip", root: root),
            timeline: Timeline(
                (0..<events).map {
                    TimelineEvent(
                        timestamp: Double($0), file: "app.log", line: $0,
                        kind: .log(LogLine(clock: "10:00:00", level: .info, context: nil, message: "line \($0)")))
                }))
    }

    @Test func keepsTheMostCompleteCopyOfEachReportWhereItFirstAppears() {
        let reports = [
            Self.report("a", "a-truncated", events: 1), Self.report("b", "b-first", events: 2),
            Self.report("a", "a-complete", events: 3), Self.report("b", "b-second", events: 2),
            Self.report("c", "c", events: 0), Self.report("a", "a-less", events: 2),
        ]
        let kept = Report.keptCopies(reports)
        #expect(kept.map(\.id) == ["a", "b", "c"])
        #expect(kept.map(\.source.root) == ["a-complete", "b-first", "c"])
        #expect(kept.map(\.completeness) == [3, 2, 0])
        #expect(Report.keptCopies([reports[0]]).map(\.source.root) == ["a-truncated"])
        #expect(Report.keptCopies([]).isEmpty)
    }
}
