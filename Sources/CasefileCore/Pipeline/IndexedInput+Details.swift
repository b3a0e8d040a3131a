/// What the parallel stages prepare for the index writer, so it only stores rows: the run and the budget benchmark
/// both call these, so the benchmark times the run's own work. Each is keyed by report id, and made of the copy the
/// index keeps when the input holds a report twice (``Report/keptCopies(_:)``).
///
/// The run makes the blobs of the reports the index does not hold yet, and skips the others: the index stores a known
/// report's copy only when it replaces the one stored (``IndexOutcome/replacedReportIDs``), which is rare, and the
/// writer then makes the blobs it was not given itself. Over an inbox of crash reports the index held already, each
/// saved anew, the blobs of known reports were 9 % of the run's samples.
extension IndexedInput {
    /// Fills ``crashDetails``: each report's crashes as ``CrashDetailCodec`` blobs, but those of the reports in
    /// `skipped`. An empty blob stands for one that failed here: the writer tries again and reports the error.
    package mutating func encodeCrashDetails(skipping skipped: Set<String> = []) {
        let encoded = Report.keptCopies(reports).filter { !$0.crashes.isEmpty && !skipped.contains($0.id) }
        let details = SideBySide.map(
            count: encoded.count, concurrently: encoded.count >= SideBySide.reports
        ) { index in
            encoded[index].crashes.map { (try? CrashDetailCodec.encode($0)) ?? CrashDetail(blob: []) }
        }
        for (report, details) in zip(encoded, details) {
            crashDetails[report.id] = details
        }
    }

    /// Fills ``eventDetails``: each report's timeline events as one ``EventDetailCodec`` blob, and ``eventSummaries``:
    /// their one-line summaries; but those of the reports in `skipped`. An empty blob stands for one that failed here:
    /// the writer tries again and reports the error.
    package mutating func encodeEventDetails(skipping skipped: Set<String> = []) {
        for report in Report.keptCopies(reports) where !report.timeline.events.isEmpty && !skipped.contains(report.id) {
            eventDetails[report.id] = (try? EventDetailCodec.encode(report.timeline.events)) ?? []
            eventSummaries[report.id] = report.timeline.events.map(\.summary)
        }
    }

    /// Fills ``symbolCoverage`` from each report's coverage as the run counted it, for the reports with a crash.
    package mutating func encodeSymbolCoverage(_ coverage: [String: SymbolCoverage]) {
        for report in Report.keptCopies(reports) where !report.crashes.isEmpty {
            if let counted = coverage[report.id] { symbolCoverage[report.id] = IndexJSON.text(counted) }
        }
    }
}
