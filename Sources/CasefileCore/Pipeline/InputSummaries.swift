/// The summaries of an input's reports, by report id: each report's summary file (relative to the output folder) and
/// symbol coverage, made as the input is read, and its Markdown, rendered when the run writes it. The run and the budget
/// benchmark both render here, so the benchmark times the run's own rendering.
///
/// A summary is rendered only for a report the index does not hold yet (or one whose copy in the index this input
/// replaces): the index keeps the summary it has for the others, so rendering theirs was wasted. An input of reports
/// seen before (a tester's folder of crash logs sent again, saved anew) or a copy of a report is indexed without
/// rendering any. Over 20,000 copies of one in-app report, rendering had been 13-14 % of the run's samples.
package struct InputSummaries: Sendable {
    /// Each report's summary file: `reports/<short id>.md`.
    package private(set) var paths: [String: String] = [:]
    /// Each report's symbol coverage, for the run's digest.
    package private(set) var coverage: [String: SymbolCoverage] = [:]
    /// The reports the summaries are rendered from: of two copies of a report in one input, the one the index keeps.
    private var reports: [String: Report] = [:]

    /// The summaries of `reports`, their links to group pages pointing at the output folder's `groups/`.
    package init(_ reports: [Report]) {
        let kept = Report.keptCopies(reports)
        // Counted on two threads for many reports (``SideBySide/reports``).
        let counted = SideBySide.map(count: kept.count, concurrently: kept.count >= SideBySide.reports) { index in
            SymbolCoverage(kept[index])
        }
        for (report, counted) in zip(kept, counted) {
            paths[report.id] = "reports/\(report.shortID).md"
            coverage[report.id] = counted
            self.reports[report.id] = report
        }
    }

    /// The Markdown summary of the report `id`, rendered now; `nil` when the input holds no such report.
    package func markdown(of id: String) -> String? {
        reports[id].map(ReportSummary(groupPages: "../groups").render)
    }
}
