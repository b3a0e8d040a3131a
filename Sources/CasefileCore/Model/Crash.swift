/// One crash (or jetsam event), from whichever format it arrived in, in one model.
///
/// Later stages — symbolication, fingerprinting — read only this type. Fields a format does not carry stay `nil`;
/// fields Casefile does not model are kept as text in ``rawFields`` so nothing is lost.
public struct Crash: Sendable, Codable, Hashable {
    /// The format the crash was read from.
    public var format: CrashFormat
    /// A crash, or a jetsam (memory pressure) event, which kills without a crash of its own.
    public var kind: CrashKind
    /// The incident identifier (`Incident Identifier`, `incident_id`, KSCrash `report.id`).
    public var incidentID: String?
    /// When the crash happened, as the report wrote it.
    public var timestamp: String?
    /// The app that crashed.
    public var app: AppInfo
    /// The crashed process's name.
    public var processName: String?
    /// The crashed process's executable path.
    public var processPath: String?
    /// The operating system.
    public var os: OperatingSystem
    /// The hardware model, e.g. `iPhone14,2`.
    public var deviceModel: String?
    /// The CPU family as reported (`ARM-64`, `X86-64`).
    public var codeType: String?
    /// What went wrong.
    public var exception: CrashException
    /// The index of the thread that crashed, when known.
    public var crashedThread: Int?
    /// The threads and their frames, innermost frame first.
    public var threads: [CrashThread]
    /// The backtrace of the uncaught exception, when the report has one (Last Exception Backtrace).
    public var exceptionBacktrace: [Frame]
    /// The binary images loaded in the process.
    public var images: [BinaryImage]
    /// For a jetsam event: the processes the kernel killed and why.
    public var jetsam: JetsamEvent?
    /// Fields of the report that the model does not cover, by name, as written.
    public var rawFields: [String: String]
    /// The primary group key, once the Fingerprint stage ran.
    public var fingerprint: String?
    /// The group keys at every resolution (`top1`, `top3`, `topN`, `exception`), once the Fingerprint stage ran.
    public var fingerprints: [String: String]?
    /// How the key was made: the frames used and the rule that skipped each other frame.
    public var grouping: Fingerprint?

    /// Creates an empty crash of a format; parsers fill it in.
    public init(format: CrashFormat, kind: CrashKind = .crash) {
        self.format = format
        self.kind = kind
        self.app = AppInfo()
        self.os = OperatingSystem()
        self.exception = CrashException()
        self.threads = []
        self.exceptionBacktrace = []
        self.images = []
        self.rawFields = [:]
    }

    /// The crashed thread, by ``crashedThread`` or by its `crashed` flag.
    public var crashingThread: CrashThread? {
        if let crashedThread, let thread = threads.first(where: { $0.index == crashedThread }) {
            return thread
        }
        return threads.first(where: \.crashed)
    }

    /// The frames of all its threads.
    public var frameCount: Int {
        threads.reduce(0) { $0 + $1.frames.count }
    }

    /// The main executable's image: the one flagged as the app.
    public var appImage: BinaryImage? {
        images.first(where: \.isApp)
    }

    /// The image name of the app's own frames: the app image's, or the app's name when no image is flagged as the
    /// app. A search of the image table: ask it once per crash, not per frame.
    public var appImageName: String? {
        appImage?.name ?? app.name
    }
}

/// The crash formats Casefile reads.
public enum CrashFormat: String, Sendable, Codable, Hashable, CaseIterable {
    /// Apple's legacy text report (`.crash`), also PLCrashReporter and KSCrash Apple-style text.
    case appleText = "apple-text"
    /// Apple's `.ips` JSON (bug type 309, 298, and 109 with a text body).
    case ips
    /// KSCrash JSON, with its SentryCrash and Bugsnag forks.
    case ksCrash = "kscrash"
    /// MetricKit diagnostics.
    case metricKit = "metrickit"
    /// An in-app handler's exception or signal report (`callStackSymbols`).
    case inAppException = "in-app-exception"
}

/// What kind of termination a report describes.
public enum CrashKind: String, Sendable, Codable, Hashable {
    /// The process crashed.
    case crash
    /// The kernel killed processes for memory (bug type 298).
    case jetsam
}
