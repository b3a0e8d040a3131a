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
            let reading = try Casefile.readInput(at: path, symbolicator: symbolicator)
            let extractor = frames == nil ? nil : VideoFrames.locate()
            if frames != nil, extractor == nil {
                printError("note: no ffmpeg on PATH; no frames extracted (Debian: apt-get install ffmpeg)")
            }
            switch reading {
            case .whole(let output):
                let reports = framed(output.reports, extractor)
                printNotes(output.notes, output.failures)
                if symbolicator != nil {
                    let crashes = reports.flatMap(\.crashes)
                    for line in SymbolDiagnostics.lines(crashes, verbose: verbose) { printError(line) }
                }
                switch format {
                case .markdown:
                    let renderer = ReportSummary()
                    print(reports.map(renderer.render).joined(separator: "\n---\n\n"), terminator: "")
                case .json:
                    // A report at a time: the JSON of a zip of hundreds of crash reports is hundreds of megabytes.
                    try TriageDocument.write(
                        input: path, reports: reports, notes: output.notes,
                        quarantined: output.failures.map { "\($0)" }
                    ) { try FileHandle.standardOutput.write(contentsOf: $0) }
                    try FileHandle.standardOutput.write(contentsOf: Data("\n".utf8))
                }
                if !output.failures.isEmpty {
                    throw ExitStatus.quarantined.exitCode
                }
            case .parts(let parts):
                try printInParts(parts, symbolicated: symbolicator != nil, extractor: extractor)
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

    /// Reads one input for `triage`, whole or in parts, or prints the one-line reason and exits with 1.
    static func readInput(at path: String, symbolicator: Symbolicator?) throws -> CasefileCore.Triage.Reading {
        do {
            return try CasefileCore.Triage().read(at: path, symbolicator: symbolicator)
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.quarantined.exitCode
        }
    }

    /// Reads the reports of one input, or prints the one-line reason and exits with 1.
    static func readReports(at path: String, symbolicator: Symbolicator? = nil) throws -> ReportReader.Output {
        do {
            return try CasefileCore.Triage().reports(at: path, symbolicator: symbolicator)
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.quarantined.exitCode
        }
    }
}
