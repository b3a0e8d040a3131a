import CasefileCore
import Testing

/// A long timeline: its events in time order whatever order they came in, and a summary's sequence diagram that keeps
/// the last 40 arrows.
@Suite struct TimelineDiagramTests {
    /// An error log line `line N` at `time`.
    static func errorLog(_ time: Double, _ number: Int) -> TimelineEvent {
        TimelineEvent(
            timestamp: time, file: "app.log", line: number,
            kind: .log(LogLine(clock: "10:00:00", level: .error, context: nil, message: "line \(number)")))
    }

    @Test func eventsAreSortedByTimeAndEqualTimesKeepTheirOrder() {
        let events = [
            Self.errorLog(3, 1), Self.errorLog(1, 2), Self.errorLog(3, 3), Self.errorLog(2, 4), Self.errorLog(1, 5),
        ]
        #expect(Timeline(events).events.map(\.line) == [2, 5, 4, 1, 3])
        // Already in order: kept as given.
        #expect(Timeline([Self.errorLog(1, 1), Self.errorLog(1, 2)]).events.map(\.line) == [1, 2])
        #expect(Timeline([]).events.isEmpty)
        // Two swaps: events at 2, 1, 4 and 3 s.
        let swapped = [Self.errorLog(2, 1), Self.errorLog(1, 2), Self.errorLog(4, 3), Self.errorLog(3, 4)]
        #expect(Timeline(swapped).events.map(\.line) == [2, 1, 4, 3])
    }

    /// Many events at seeded times, a few seconds apart so that many share a time: in the order of a stable sort.
    @Test func manyEventsSortLikeAStableSort() {
        var numbers = SeededNumbers(seed: 8)
        let events = (1...500).map { Self.errorLog(Double(numbers.next(below: 40)), $0) }
        let stable = events.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }
        #expect(Timeline(events).events.map(\.line) == stable.map(\.element.line))
    }

    @Test func theDiagramKeepsTheLastFortyArrowsEvenWhenTheyCutAFailureInTwo() {
        // A failed request at 10 s draws two arrows (the request, the error); the 39 error logs after it draw one
        // each. 41 arrows: the diagram keeps the failure's second arrow and every log.
        var failed = NetworkExchange(url: "https://api.example/v1/feed", statusCode: 500, responseAt: 10)
        failed.endAt = 10
        let request = TimelineEvent(timestamp: 10, file: "Modules/module_network.json", line: 1, kind: .network(failed))
        let logs = (1...39).map { Self.errorLog(10 + Double($0), $0) }
        // Handed over out of order: the timeline sorts them.
        let report = Report(
            id: "r", format: .clue, source: ReportSource(input: "inbox/r.clue", root: ""),
            timeline: Timeline(logs.reversed() + [request]))
        let lines = ReportSummary().render(report).split(separator: "\n", omittingEmptySubsequences: false)
        let diagram = lines.drop { $0 != "```mermaid" }.dropFirst().prefix { $0 != "```" }
        let arrows = diagram.filter { $0.contains(": ") }
        #expect(arrows.count == 40)
        #expect(arrows.first == "    Server-->>App: HTTP 500")
        #expect(arrows.dropFirst().first == "    Note over App: 11.000 s error logged: line 1")
        #expect(arrows.last == "    Note over App: 49.000 s error logged: line 39")
        #expect(!diagram.contains { $0.contains("App->>Server") })
    }
}
