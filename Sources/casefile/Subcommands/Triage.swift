import ArgumentParser
import CasefileCore
import Foundation

extension Casefile {
    /// `casefile triage PATH`: one report to stdout, no database.
    struct Triage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "triage",
            abstract: "Print a triage summary of one report (or every report in one archive) to stdout.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case markdown
            case json
        }

        @Argument(help: "A report: a .clue folder or zip, or an archive holding reports.")
        var path: String

        @Option(help: "Output format: markdown, or json (versioned; see Schemas/triage-v1.schema.json).")
        var format: Format = .markdown

        @Option(name: .long, help: "A folder of debug files to symbolicate crashes with; may be repeated.")
        var symbols: [String] = []

        @Option(
            name: .long,
            help:
                "A folder to write the screen video's frame at each failure and at the crash to (needs ffmpeg on PATH)."
        )
        var frames: String?

        @Flag(name: .shortAndLong, help: "Name every image left unsymbolicated, system libraries included.")
        var verbose = false

        func run() throws {
            let symbolicator = symbols.isEmpty ? nil : Symbolicator(index: Casefile.debugFiles(in: symbols))
            let reading = try Casefile.quarantining {
                try CasefileCore.Triage().read(at: path, symbolicator: symbolicator)
            }
            let extractor = frames == nil ? nil : VideoFrames.locate()
            if frames != nil, extractor == nil {
                printError("note: no ffmpeg on PATH; no frames extracted (Debian: apt-get install ffmpeg)")
            }
            let failures: [InputError]
            switch reading {
            case .whole(let output):
                let reports = framed(output.reports, extractor)
                printNotes(output.notes, output.failures)
                if symbolicator != nil {
                    let crashes = reports.flatMap(\.crashes)
                    for line in SymbolDiagnostics.lines(crashes, verbose: verbose) { printError(line) }
                }
                var unprinted: [Report]? = reports
                try printReports(notes: output.notes, failures: output.failures) {
                    defer { unprinted = nil }
                    return unprinted
                }
                failures = output.failures
            case .parts(let parts):
                try printInParts(parts, symbolicated: symbolicator != nil, extractor: extractor)
                failures = parts.failures
            }
            if !failures.isEmpty {
                throw ExitStatus.quarantined.exitCode
            }
        }

        /// Prints the reports `next` gives a part at a time (`nil` after the last), in the format asked: Markdown
        /// summaries one after another, or the JSON document written a report at a time (the JSON of a zip of hundreds
        /// of crash reports is hundreds of megabytes).
        func printReports(notes: [String], failures: [InputError], next: () throws -> [Report]?) throws {
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
                    input: path, parts: next, notes: notes, quarantined: failures.map { "\($0)" }
                ) { try FileHandle.standardOutput.write(contentsOf: $0) }
                try FileHandle.standardOutput.write(contentsOf: Data("\n".utf8))
            }
        }

        /// Prints the notes and the quarantined entries of the input to stderr.
        func printNotes(_ notes: [String], _ failures: [InputError]) {
            for note in notes {
                printError("note: \(note)")
            }
            for failure in failures {
                printError("quarantined: \(failure)")
            }
        }

        /// `reports`, each with its screen frames extracted when `--frames` asks for them and ffmpeg was found.
        func framed(_ reports: [Report], _ extractor: VideoFrames?) -> [Report] {
            guard let frames, let extractor else { return reports }
            return reports.map { report in
                extractor.extract(
                    report, into: URL(fileURLWithPath: frames).appendingPathComponent(report.shortID),
                    linkPrefix: "\(frames)/\(report.shortID)/")
            }
        }
    }

    /// The debug files in the `--symbols` folders; each file that cannot be read is named in a warning, and the
    /// others are used.
    static func debugFiles(in folders: [String]) -> DebugFileIndex {
        let index = DebugFileIndex(scanning: folders.map { URL(fileURLWithPath: $0) })
        for problem in index.problems { printError("warning: \(problem)") }
        return index
    }

    /// What `body` gives, or, when it throws, its one-line reason printed and exit code 1.
    static func quarantining<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.quarantined.exitCode
        }
    }

    /// Reads the reports of one input, or prints the one-line reason and exits with 1.
    static func readReports(at path: String, symbolicator: Symbolicator? = nil) throws -> ReportReader.Output {
        try quarantining { try CasefileCore.Triage().reports(at: path, symbolicator: symbolicator) }
    }
}
