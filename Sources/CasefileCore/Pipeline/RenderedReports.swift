/// What the parallel stages make of an input's reports besides their rows, by report id: each report's summary file
/// (relative to the output folder), its Markdown, and its symbol coverage. The run and the budget benchmark both
/// render here, so the benchmark times the run's own rendering.
package struct RenderedReports: Sendable {
    /// Each report's summary file: `reports/<short id>.md`.
    package var paths: [String: String] = [:]
    /// Each report's summary, as Markdown.
    package var summaries: [String: String] = [:]
    /// Each report's symbol coverage, for the run's digest.
    package var coverage: [String: SymbolCoverage] = [:]

    /// Renders `reports`, their links to group pages pointing at the output folder's `groups/`.
    package init(_ reports: [Report]) {
        let renderer = ReportSummary(groupPages: "../groups")
        // Of two copies of a report in one input, the one the index keeps.
        for report in Report.keptCopies(reports) {
            paths[report.id] = "reports/\(report.shortID).md"
            summaries[report.id] = renderer.render(report)
            coverage[report.id] = SymbolCoverage(report)
        }
    }
}
