/// What the parallel stages prepare for the index writer, so it only stores rows: the run and the budget benchmark
/// both call these, so the benchmark times the run's own work. Each is keyed by report id, and made of the copy the
/// index keeps when the input holds a report twice (``Report/keptCopies(_:)``).
extension IndexedInput {
    /// Fills ``crashDetails``: each report's crashes as ``CrashDetailCodec`` blobs. An empty blob stands for one that
    /// failed here: the writer tries again and reports the error.
    package mutating func encodeCrashDetails() {
        for report in Report.keptCopies(reports) where !report.crashes.isEmpty {
            crashDetails[report.id] = report.crashes.map { (try? CrashDetailCodec.encode($0)) ?? CrashDetail(blob: []) }
        }
    }

    /// Fills ``eventDetails``: each report's timeline events as one ``EventDetailCodec`` blob, and ``eventSummaries``:
    /// their one-line summaries. An empty blob stands for one that failed here: the writer tries again and reports the
    /// error.
    package mutating func encodeEventDetails() {
        for report in Report.keptCopies(reports) where !report.timeline.events.isEmpty {
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
