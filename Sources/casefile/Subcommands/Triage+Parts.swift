import CasefileCore
import Foundation

extension Casefile.Triage {
    /// Prints a large input read in parts (``CasefileCore/Triage/Reading/parts(_:)``) as the input read whole is
    /// printed, a part at a time: what triage holds is one part's reports. The lines about frames left unsymbolicated
    /// need every crash, so they come after the summaries here, not before.
    func printInParts(_ parts: TriageParts, symbolicated: Bool, extractor: VideoFrames?) throws {
        printNotes(parts.notes, parts.failures)
        var diagnostics = SymbolDiagnostics.Tally()
        // Each part as printed: framed, its crashes counted for the diagnostics.
        func next() throws -> [Report]? {
            let part: [Report]?
            do {
                part = try parts.next()
            } catch {
                // What was printed stays; the input is quarantined as one whose reading failed.
                printError("casefile: \(error)")
                throw ExitStatus.quarantined.exitCode
            }
            guard let part else { return nil }
            let reports = framed(part, extractor)
            if symbolicated { diagnostics.add(reports.flatMap(\.crashes)) }
            return reports
        }
        switch format {
        case .markdown:
            let renderer = ReportSummary()
            var first = true
            while let reports = try next() {
                for report in reports {
                    print(first ? renderer.render(report) : "\n---\n\n" + renderer.render(report), terminator: "")
                    first = false
                }
            }
        case .json:
            try TriageDocument.write(
                input: path, parts: next, notes: parts.notes, quarantined: parts.failures.map { "\($0)" }
            ) { try FileHandle.standardOutput.write(contentsOf: $0) }
            try FileHandle.standardOutput.write(contentsOf: Data("\n".utf8))
        }
        if symbolicated {
            for line in diagnostics.lines(verbose: verbose) { printError(line) }
        }
        if !parts.failures.isEmpty {
            throw ExitStatus.quarantined.exitCode
        }
    }
}
