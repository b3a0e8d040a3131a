import Foundation
import Testing

/// Runs the built `casefile` binary, which SwiftPM builds beside the test bundle.
enum Casefile {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["CASEFILE_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var folder = Bundle.main.bundleURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("casefile")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/casefile")
    }

    static func sample(_ name: String) -> String {
        repository.appendingPathComponent("SampleReports").appendingPathComponent(name).path
    }

    /// Writes `name` into `work`: a nightly pipeline over `work/inbox` writing to `work/out`, symbolicating with the
    /// debug files in `symbols`; returns its path.
    @discardableResult
    static func writePipeline(in work: URL, named name: String = "pipeline.toml", symbols: String) throws -> String {
        let pipeline = work.appendingPathComponent(name).path
        try """
        version = 1
        [inbox]
        path = "inbox"
        [output]
        path = "out"
        [symbols]
        paths = ["\(symbols)"]
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        return pipeline
    }

    /// Writes `pipeline.toml` in `work`: the inbox `inbox`, the output `out`, no symbols and no video frames; returns its
    /// path.
    @discardableResult
    static func writeBarePipeline(in work: URL) throws -> String {
        let pipeline = work.appendingPathComponent("pipeline.toml").path
        try "version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\nframes = false\n".write(
            toFile: pipeline, atomically: true, encoding: .utf8)
        return pipeline
    }

    /// The first report `casefile triage --format json --symbols SYMBOLS PATH` prints.
    static func triagedReport(_ path: String, symbols: String) throws -> JSON {
        let result = try run(["triage", "--format", "json", "--symbols", symbols, path])
        return try #require(try JSON.parse(result.stdout)["reports"]?.array?.first, "\(result.stderr)")
    }

    /// Runs `casefile` with `arguments` in `directory`, capturing both streams; `environment` is added to the test's.
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        try runTool(binary.path, arguments, in: directory, environment: environment)
    }

    /// Runs any program, capturing both streams; `environment` is added to the test's.
    static func runTool(
        _ path: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repository
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // The error stream goes to a file, not a second pipe: a program that filled one pipe (64 KB) while the other
        // was being read to its end would wait forever.
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errors.path])
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        let err = try FileHandle(forWritingTo: errors)
        defer { try? err.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = try Data(contentsOf: errors)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
