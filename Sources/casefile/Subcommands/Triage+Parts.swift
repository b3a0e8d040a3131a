import CasefileCore

extension Casefile.Triage {
    /// Prints a large input read in parts (``CasefileCore/Triage/Reading/parts(_:)``) as the input read whole is
    /// printed, a part at a time: what triage holds is one part's reports. The lines about frames left unsymbolicated
    /// need every crash, so they come after the summaries here, not before.
    func printInParts(_ parts: TriageParts, symbolicated: Bool, extractor: VideoFrames?) throws {
        printNotes(parts.notes, parts.failures)
        var diagnostics = SymbolDiagnostics.Tally()
        // What was printed stays when a part fails; the input is quarantined as one whose reading failed.
        try printReports(notes: parts.notes, failures: parts.failures) {
            guard let part = try Casefile.quarantining({ try parts.next() }) else { return nil }
            let reports = framed(part, extractor)
            if symbolicated { diagnostics.add(reports.flatMap(\.crashes)) }
            return reports
        }
        if symbolicated {
            for line in diagnostics.lines(verbose: verbose) { printError(line) }
        }
    }
}
