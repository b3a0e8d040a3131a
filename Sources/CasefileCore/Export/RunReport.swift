public import Foundation

/// `casefile run --json`: the run's figures for scripts (`Schemas/run-v1.schema.json`).
public struct RunReport: Sendable, Codable, Equatable {
    /// One quarantined input.
    public struct Quarantined: Sendable, Codable, Equatable {
        /// The input file or folder.
        public var input: String
        /// The entry inside it, when one entry was the problem.
        public var entry: String?
        /// Why.
        public var reason: String
    }

    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion = Self.currentSchemaVersion
    /// The run's id in the index.
    public var run: Int64
    /// Inputs found in the inbox.
    public var inputs: Int
    /// Inputs processed in this run.
    public var processed: Int
    /// Inputs skipped as already seen.
    public var skipped: Int
    /// Reports indexed for the first time.
    public var newReports: Int
    /// Reports found again and not indexed twice.
    public var duplicateReports: Int
    /// Quarantined inputs with their reasons, by input path, then entry and reason.
    public var quarantined: [Quarantined]
    /// Wall-clock seconds.
    public var seconds: Double
    /// The process exit code (0, or 1 when something was quarantined).
    public var exitCode: Int32
    /// The index file.
    public var index: String
    /// The folder of report summaries.
    public var summaries: String
    /// The run's digest.
    public var digest: String
    /// The tracker outbox folder.
    public var outbox: String

    /// The report of `summary` for a run writing to `output` and `database`.
    public init(summary: RunSummary, output: URL, database: URL) {
        run = summary.runID
        inputs = summary.inputs
        processed = summary.processed
        skipped = summary.skipped
        newReports = summary.newReports
        duplicateReports = summary.duplicateReports
        quarantined = summary.quarantined.map { Quarantined(input: $0.input, entry: $0.entry, reason: $0.reason) }
        seconds = summary.seconds
        exitCode = summary.exitCode
        index = database.path
        summaries = output.appendingPathComponent("reports").path
        digest = output.appendingPathComponent("digest.md").path
        outbox = output.appendingPathComponent("outbox").path
    }

    /// Pretty JSON with sorted keys.
    public func encoded() throws -> String {
        String(decoding: try DocumentEncoding.encoder().encode(self), as: UTF8.self)
    }
}
