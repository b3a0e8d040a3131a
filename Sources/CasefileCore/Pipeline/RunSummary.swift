/// The figures of one run, for the closing line, the exit code and the runs table.
public struct RunSummary: Sendable, Hashable {
    /// The run's id in the index.
    public var runID: Int64
    /// Inputs found in the inbox.
    public var inputs = 0
    /// Inputs processed and indexed in this run.
    public var processed = 0
    /// Inputs skipped because their content was indexed (or quarantined) before.
    public var skipped = 0
    /// Inputs quarantined in this run, with their reasons; by input path once the run is done.
    public var quarantined: [InputError] = []
    /// Reports indexed for the first time.
    public var newReports = 0
    /// Reports found again in another input and not indexed twice.
    public var duplicateReports = 0
    /// Wall-clock seconds the run took.
    public var seconds = 0.0

    /// Creates an empty summary for a run.
    public init(runID: Int64) {
        self.runID = runID
    }

    /// The process exit code: 0 when everything was processed, 1 when something was quarantined.
    public var exitCode: Int32 {
        quarantined.isEmpty ? 0 : 1
    }

    /// The one line a cron mail shows.
    public var line: String {
        var text = "\(processed) processed, \(skipped) skipped (already seen), \(quarantined.count) quarantined"
        text += "; \(newReports) new report\(newReports == 1 ? "" : "s")"
        if duplicateReports > 0 {
            text += ", \(duplicateReports) duplicate\(duplicateReports == 1 ? "" : "s")"
        }
        return text
    }
}
