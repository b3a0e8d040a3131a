public import CasefileArchive

/// The JSON document `casefile triage --format json` prints: versioned, documented by
/// `Schemas/triage-v1.schema.json`, plain keys, events with a `type` field, chains under `chains`.
public struct TriageDocument: Sendable, Codable {
    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion: Int
    /// Always `casefile`.
    public var generator: String
    /// The input as given on the command line.
    public var input: String
    /// Notes about entries of the input that were skipped.
    public var notes: [String]
    /// Entries quarantined, each with its one-line reason.
    public var quarantined: [String]
    /// The reports found in the input.
    public var reports: [ReportDocument]

    /// Creates a document of the reports read from `input`.
    public init(input: String, reports: [Report], notes: [String], quarantined: [String]) {
        schemaVersion = Self.currentSchemaVersion
        generator = "casefile"
        self.input = input
        self.notes = notes
        self.quarantined = quarantined
        self.reports = reports.map(ReportDocument.init)
    }
}

/// One report in a ``TriageDocument``.
public struct ReportDocument: Sendable, Codable {
    /// The report's identity (SHA-256, hex).
    public var id: String
    /// The format it was read from (`clue`, `ips`, `apple-crash`, `kscrash`, `metrickit`, `in-app-exception`).
    public var format: ReportFormat
    /// Where it was found.
    public var source: ReportSource
    /// The device, as recorded.
    public var device: Device?
    /// The app, as recorded.
    public var app: AppInfo?
    /// The recording's length in seconds.
    public var durationSeconds: Double?
    /// The screen video: size and duration.
    public var video: MediaInfo?
    /// How many view snapshots the recording held.
    public var viewSnapshotCount: Int
    /// The crashes.
    public var crashes: [Crash]
    /// Failed requests keyed for grouping.
    public var failures: [FailureFingerprint]
    /// Every event on the recording clock, in time order; chains and steps refer to events by position here.
    public var events: [TimelineEvent]
    /// One causal chain per failed request.
    public var chains: [CausalChain]
    /// Repro steps, ending at the last failure or the crash.
    public var reproSteps: [ReproStep]
    /// Positions of the last events before the crash.
    public var beforeCrash: [Int]
    /// Custom info files by name.
    public var extraInfo: [String: JSONValue]
    /// What files attached beside the report add: version, toggles, libraries, data snapshots.
    public var attachments: ReportAttachments
    /// What could not be read.
    public var warnings: [Diagnostic]

    /// The document form of a report.
    public init(_ report: Report) {
        id = report.id
        format = report.format
        source = report.source
        device = report.device
        app = report.app
        durationSeconds = report.duration
        video = report.video
        viewSnapshotCount = report.viewSnapshotCount
        crashes = report.crashes
        failures = report.failures
        events = report.timeline.events
        chains = report.correlation.chains
        reproSteps = report.correlation.steps
        beforeCrash = report.correlation.beforeCrash
        extraInfo = report.extraInfo
        attachments = report.attachments
        warnings = report.warnings
    }
}
