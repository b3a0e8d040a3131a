public import CasefileArchive

/// One bug report or crash report, normalized: what device it came from, what happened, and what could not be read.
///
/// Every parser produces this one type, so the later stages never care which format a report arrived in.
public struct Report: Sendable, Codable, Hashable {
    /// A stable identity: the SHA-256 of the report's own files (so the same report zipped and unzipped is one
    /// report), in lowercase hex.
    public var id: String
    /// The format the report was read from.
    public var format: ReportFormat
    /// Where the report was found.
    public var source: ReportSource
    /// The device, as far as the report records it.
    public var device: Device?
    /// The app, as far as the report records it (a `.clue` recording does not).
    public var app: AppInfo?
    /// The recording's length in seconds: the later of the last event and the end of the screen video.
    public var duration: Double?
    /// The screen video, when the report has one: size and duration only, never its frames.
    public var video: MediaInfo?
    /// The screen video's path inside the input (``ArchiveEntry/path``), when the report has one.
    public var videoEntry: String?
    /// Frames of the screen video at each failure and at the crash, once extracted (see ``VideoFrames``).
    public var frames: [VideoFrame] = []
    /// The uncaught exception recorded with the report, if any.
    public var exception: AppException?
    /// The crashes the report holds: one for a crash report, several for a MetricKit payload, the recorded
    /// exception of a `.clue` report.
    public var crashes: [Crash]
    /// Custom info files (`Info/info_*.json` beyond the device file), by file name.
    public var extraInfo: [String: JSONValue]
    /// Every event of the report, merged onto the recording's clock.
    public var timeline: Timeline
    /// How many view-hierarchy snapshots the report held (they are reduced to screen changes, not kept).
    public var viewSnapshotCount: Int
    /// What could not be read, each naming the file and line.
    public var warnings: [Diagnostic]
    /// The failed requests keyed for grouping, once the Fingerprint stage ran (recordings without a crash).
    public var failures: [FailureFingerprint] = []
    /// The causal chains, repro steps and crash context, once the Correlate stage ran.
    public var correlation = Correlation()
    /// What files attached beside the report add: version, toggles, libraries, data snapshots.
    public var attachments = ReportAttachments()

    /// Creates a report.
    public init(
        id: String, format: ReportFormat, source: ReportSource, device: Device? = nil, app: AppInfo? = nil,
        duration: Double? = nil, video: MediaInfo? = nil, exception: AppException? = nil, crashes: [Crash] = [],
        extraInfo: [String: JSONValue] = [:], timeline: Timeline = Timeline(), viewSnapshotCount: Int = 0,
        warnings: [Diagnostic] = []
    ) {
        self.id = id
        self.format = format
        self.source = source
        self.device = device
        self.app = app
        self.duration = duration
        self.video = video
        self.exception = exception
        self.crashes = crashes
        self.extraInfo = extraInfo
        self.timeline = timeline
        self.viewSnapshotCount = viewSnapshotCount
        self.warnings = warnings
    }

    /// The first twelve characters of ``id``, for display and file names.
    public var shortID: String {
        String(id.prefix(12))
    }

    /// The network exchanges that failed (HTTP status ≥ 400, transport error, timeout), in time order.
    public var failedExchanges: [(event: TimelineEvent, exchange: NetworkExchange)] {
        timeline.events.compactMap { event in
            guard case .network(let exchange) = event.kind, exchange.failure != nil else { return nil }
            return (event, exchange)
        }
    }
}

/// The formats Casefile reads.
public enum ReportFormat: String, Sendable, Codable, Hashable, CaseIterable {
    /// A Clue iOS framework recording (`.clue` package or zip).
    case clue
    /// Apple's legacy text crash report, or a PLCrashReporter / KSCrash imitation.
    case appleCrash = "apple-crash"
    /// Apple's `.ips` JSON crash report (including Xcode 16 translated + full exports).
    case ips
    /// KSCrash JSON.
    case ksCrash = "kscrash"
    /// MetricKit diagnostics.
    case metricKit = "metrickit"
    /// An in-app handler's exception or signal report.
    case inAppException = "in-app-exception"

    /// The report format of a detected crash file.
    init(_ kind: CrashReportParser.Kind) {
        switch kind {
        case .ips, .translatedAndFull: self = .ips
        case .appleText: self = .appleCrash
        case .ksCrash: self = .ksCrash
        case .metricKit: self = .metricKit
        case .inAppJSON, .inAppText: self = .inAppException
        }
    }
}

/// Where a report was found: the input, and the folder inside it that holds the report.
public struct ReportSource: Sendable, Codable, Hashable {
    /// The input file or directory.
    public var input: String
    /// The report's folder inside the input (`""` when the input itself is the report).
    public var root: String
    /// The Clue report UUID, when the package folder is named `<UUID>.clue`.
    public var clueUUID: String?

    /// Creates a source.
    public init(input: String, root: String, clueUUID: String? = nil) {
        self.input = input
        self.root = root
        self.clueUUID = clueUUID
    }

    /// `input` or `input › root`.
    public var description: String {
        root.isEmpty ? input : "\(input) › \(root)"
    }
}
