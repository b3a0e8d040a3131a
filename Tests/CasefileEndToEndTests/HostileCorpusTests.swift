import Foundation
import GRDB
import Testing

/// `casefile run` over `SampleReports/` with the hostile corpus in it (`Scripts/make-hostile.py`): no crash, each
/// hostile input quarantined with its reason or read in part as `expected.json` says, every good report of the
/// samples still indexed, and peak memory bounded.
@Suite(.serialized) final class HostileCorpusTests {
    let work: URL
    let samples = Casefile.repository.appendingPathComponent("SampleReports")
    var hostile: URL { samples.appendingPathComponent("Hostile") }

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// The large files are not committed: `make test` writes them, and so does this test when they are missing.
    private func ensureLargeFiles() throws {
        let written = ["million-events.clue.zip", "many-lines.crash"].allSatisfy {
            FileManager.default.fileExists(atPath: hostile.appendingPathComponent($0).path)
        }
        guard !written else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Casefile.repository.appendingPathComponent("Scripts/make-hostile.py").path, "--large",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "Scripts/make-hostile.py --large failed; run make test")
    }

    private func pipeline(_ name: String, ignore: [String]) throws -> String {
        let path = work.appendingPathComponent("\(name).toml")
        let list = ignore.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
        version = 1
        [inbox]
        path = "\(samples.path)"
        ignore = [\(list)]
        [output]
        path = "\(name)"
        frames = false
        """.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    private func reportIDs(_ name: String) throws -> Set<String> {
        let queue = try DatabaseQueue(path: work.appendingPathComponent("\(name)/casefile.sqlite").path)
        return try queue.read { db in Set(try String.fetchAll(db, sql: "SELECT id FROM reports")) }
    }

    private func inputStatus(_ name: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: work.appendingPathComponent("\(name)/casefile.sqlite").path)
        return try queue.read { db in
            var status: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, status FROM inputs") {
                status[row["path"]] = row["status"]
            }
            return status
        }
    }

    /// Runs `casefile` and samples its peak resident memory (`VmHWM`) while it runs.
    private func runMeasuringMemory(_ arguments: [String]) throws -> (Casefile.Result, peakMB: Int) {
        let process = Process()
        process.executableURL = Casefile.binary
        process.arguments = arguments
        process.currentDirectoryURL = work
        // Files, not pipes: nothing to drain while the memory is sampled.
        let outFile = work.appendingPathComponent("stdout.txt")
        let errFile = work.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes / 1024)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        let result = Casefile.Result(
            status: process.terminationStatus, stdout: try String(contentsOf: outFile, encoding: .utf8),
            stderr: try String(contentsOf: errFile, encoding: .utf8))
        return (result, peak)
    }

    @Test func everyHostileInputIsQuarantinedOrReadInPartAndTheGoodReportsAreIndexed() throws {
        try ensureLargeFiles()
        let expectedText = try String(contentsOf: hostile.appendingPathComponent("expected.json"), encoding: .utf8)
        let expectedJSON = try JSON.parse(expectedText)
        var expected: [String: String] = [:]
        for section in ["small", "large"] {
            guard case .object(let members) = expectedJSON[section] ?? .null else { continue }
            for (name, value) in members { expected[name] = value.string }
        }
        #expect(expected.count >= 30)

        let clean = try Casefile.run(["run", try pipeline("clean", ignore: ["*.md", "Symbols", "Hostile"])], in: work)
        #expect([0, 1].contains(clean.status))
        let (result, peakMB) = try runMeasuringMemory([
            "run", "--json", try pipeline("hostile", ignore: ["*.md", "Symbols", "expected.json"]),
        ])
        // Exit 1: inputs were quarantined; a crash would be a signal or another code.
        #expect(result.status == 1, "\(result.stderr.suffix(2000))")
        #expect(peakMB > 0 && peakMB < 600, "peak RSS \(peakMB) MB")

        let quarantineLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("quarantined: ") }
        let status = try inputStatus("hostile")
        for (name, outcome) in expected.sorted(by: { $0.key < $1.key }) {
            let path = hostile.appendingPathComponent(name).path
            let line = quarantineLines.first { $0.hasPrefix("quarantined: \(path): ") }
            if outcome.hasPrefix("quarantine: ") {
                let reason = String(outcome.dropFirst("quarantine: ".count))
                #expect(line != nil, "\(name) should be quarantined")
                #expect(line?.contains(reason) == true, "\(name): \(line ?? "not quarantined") lacks '\(reason)'")
                #expect(line?.contains("\n") != true)
            } else {
                #expect(line == nil, "\(name) should be read: \(line ?? "")")
                #expect(status[path] == "indexed", "\(name): \(status[path] ?? "not in the index")")
            }
        }
        // Every good report of the samples is indexed beside the hostile ones.
        let good = try reportIDs("clean")
        #expect(good.count > 20)
        #expect(good.isSubset(of: try reportIDs("hostile")))
        // The million-event recording was read in part, and says so.
        let queue = try DatabaseQueue(path: work.appendingPathComponent("hostile/casefile.sqlite").path)
        let warnings = try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT w.message FROM report_warnings w JOIN reports r ON r.id = w.report_id
                    JOIN inputs i ON i.id = r.input_id WHERE i.path LIKE '%million-events.clue.zip'
                    """)
        }
        #expect(warnings.contains("read the first 100000 records; 900000 more lines from here on were skipped"))
        // Nothing escaped the archives.
        #expect(!FileManager.default.fileExists(atPath: "/tmp/casefile-evil.txt"))
    }
}
