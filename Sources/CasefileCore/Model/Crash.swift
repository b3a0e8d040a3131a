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

    /// The main executable's image: the one flagged as the app.
    public var appImage: BinaryImage? {
        images.first(where: \.isApp)
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

/// The operating system a crash happened on.
public struct OperatingSystem: Sendable, Codable, Hashable {
    /// `iOS`, `iPhone OS`, `macOS`.
    public var name: String?
    /// `16.5`.
    public var version: String?
    /// `20F66`.
    public var build: String?

    /// Creates an OS description.
    public init(name: String? = nil, version: String? = nil, build: String? = nil) {
        self.name = name
        self.version = version
        self.build = build
    }

    /// Parses Apple's `iPhone OS 15.5 (19F77)`, `iOS 8.0.2 (12A405)`, `iPhone OS 11.4.1 (Build 15G77)`.
    public init(appleText text: String) {
        var rest = Substring(text.trimmingSpaces)
        if let open = rest.lastIndex(of: "("), rest.hasSuffix(")") {
            var build = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if build.hasPrefix("Build ") { build = build.dropFirst(6) }
            self.build = String(build)
            rest = rest[..<open]
        }
        let parts = rest.split(separator: " ")
        if let last = parts.last, last.first?.isNumber == true {
            version = String(last)
            let name = parts.dropLast().joined(separator: " ")
            self.name = name.isEmpty ? nil : name
        } else {
            name = rest.isEmpty ? nil : String(rest).trimmingSpaces
        }
    }

    /// `iPhone OS 15.5 (19F77)`.
    public var description: String {
        var text = [name, version].compactMap { $0 }.joined(separator: " ")
        if let build { text += " (\(build))" }
        return text
    }
}

/// Why the process died.
public struct CrashException: Sendable, Codable, Hashable {
    /// The Mach exception, e.g. `EXC_BAD_ACCESS`; or a bare signal name for reporters that write one.
    public var type: String?
    /// The signal, e.g. `SIGSEGV`.
    public var signal: String?
    /// The exception codes as numbers, so `0x8badf00d` and `2343432205` compare equal.
    public var codes: [UInt64]
    /// The codes as written, e.g. `KERN_INVALID_ADDRESS at 0x0000000000000010`.
    public var codesText: String?
    /// The subtype, e.g. `KERN_INVALID_ADDRESS at 0x10`.
    public var subtype: String?
    /// The exception name of an uncaught NSException or C++ exception.
    public var name: String?
    /// The message: an NSException reason, a Swift runtime failure, `abort() called`.
    public var reason: String?
    /// The termination namespace, e.g. `SPRINGBOARD`, `SIGNAL`, `RUNNINGBOARD`.
    public var terminationNamespace: String?
    /// The termination code, e.g. `0x8badf00d` (decimal and hex forms normalized to one number).
    public var terminationCode: UInt64?
    /// The termination reason text as written.
    public var terminationReason: String?
    /// Application Specific Information, as written.
    public var applicationSpecificInformation: String?

    /// Creates an empty exception.
    public init() {
        codes = []
    }

    /// The termination code as Apple writes it in text, e.g. `0x8badf00d`.
    public var terminationCodeHex: String? {
        terminationCode.map { "0x" + String($0, radix: 16) }
    }

    /// A name for the termination code when it is one of Apple's well-known ones.
    public var terminationMeaning: String? {
        switch terminationCode {
        case 0x8bad_f00d: "watchdog timeout (ate bad food)"
        case 0xdead_10cc: "held a file lock or database while suspended (deadlock)"
        case 0x2bad_45ec: "security violation"
        case 0xc000_10ff: "thermal event"
        case 0xbad2_2222: "VoIP app woke too often"
        case 0xdead_fa11: "force quit by the user"
        default: nil
        }
    }
}

/// One thread of a crashed process.
public struct CrashThread: Sendable, Codable, Hashable {
    /// The thread's index in the report.
    public var index: Int
    /// The thread name.
    public var name: String?
    /// The dispatch queue it was running.
    public var queue: String?
    /// Whether this thread crashed.
    public var crashed: Bool
    /// Frames, innermost first.
    public var frames: [Frame]

    /// Creates a thread.
    public init(index: Int, name: String? = nil, queue: String? = nil, crashed: Bool = false, frames: [Frame] = []) {
        self.index = index
        self.name = name
        self.queue = queue
        self.crashed = crashed
        self.frames = frames
    }
}

/// One stack frame.
public struct Frame: Sendable, Codable, Hashable {
    /// The binary image's name, e.g. `ShopApp`, `UIKitCore`, `???`.
    public var image: String?
    /// The image's UUID, when the frame itself names it (`backtrace_symbols` writes `UUID + offset` for
    /// `<redacted>` symbols); otherwise look it up in ``Crash/images``.
    public var imageUUID: String?
    /// The absolute address (program counter or return address).
    public var address: UInt64?
    /// The load address of the frame's image, when known.
    public var imageLoadAddress: UInt64?
    /// The address relative to the image's load address.
    public var imageOffset: UInt64?
    /// The symbol, as written (mangled or not).
    public var symbol: String?
    /// The offset of the address into the symbol.
    public var symbolOffset: UInt64?
    /// The source file, when the report is symbolicated with line information.
    public var file: String?
    /// The source line.
    public var line: Int?
    /// Whether the report marks the frame as inlined.
    public var inlined: Bool
    /// What symbolication found; `nil` until a symbolicator ran. The reported fields above are never changed.
    public var symbolication: FrameSymbolication?

    /// Creates a frame.
    public init(
        image: String? = nil, address: UInt64? = nil, imageLoadAddress: UInt64? = nil, imageOffset: UInt64? = nil,
        symbol: String? = nil, symbolOffset: UInt64? = nil, file: String? = nil, line: Int? = nil,
        inlined: Bool = false
    ) {
        self.image = image
        self.address = address
        self.imageLoadAddress = imageLoadAddress
        self.imageOffset = imageOffset
        self.symbol = symbol
        self.symbolOffset = symbolOffset
        self.file = file
        self.line = line
        self.inlined = inlined
    }
}

/// A binary image loaded in the crashed process.
public struct BinaryImage: Sendable, Codable, Hashable {
    /// The image name, e.g. `ShopApp`.
    public var name: String
    /// The image path.
    public var path: String?
    /// The architecture, e.g. `arm64`, `arm64e`.
    public var arch: String?
    /// The image UUID, normalized to lowercase with dashes.
    public var uuid: String?
    /// The load address.
    public var loadAddress: UInt64
    /// The last address of the image (inclusive), when known.
    public var endAddress: UInt64?
    /// Whether this is the app's main executable.
    public var isApp: Bool

    /// Creates an image.
    public init(
        name: String, path: String? = nil, arch: String? = nil, uuid: String? = nil, loadAddress: UInt64,
        endAddress: UInt64? = nil, isApp: Bool = false
    ) {
        self.name = name
        self.path = path
        self.arch = arch
        self.uuid = uuid.flatMap(UUIDText.normalize)
        self.loadAddress = loadAddress
        self.endAddress = endAddress
        self.isApp = isApp
    }

    /// Whether an address falls inside the image.
    public func contains(_ address: UInt64) -> Bool {
        guard address >= loadAddress else { return false }
        guard let endAddress else { return false }
        return address <= endAddress
    }
}

/// A jetsam event: which processes the kernel killed for memory.
public struct JetsamEvent: Sendable, Codable, Hashable {
    /// The largest process at the time.
    public var largestProcess: String?
    /// The processes killed, with the kernel's reason (`per-process-limit`, `vm-pageshortage`, …).
    public var killed: [KilledProcess]
    /// The page size the kernel reported.
    public var pageSize: Int?

    /// Creates a jetsam event.
    public init(largestProcess: String? = nil, killed: [KilledProcess] = [], pageSize: Int? = nil) {
        self.largestProcess = largestProcess
        self.killed = killed
        self.pageSize = pageSize
    }
}

/// One process a jetsam event killed.
public struct KilledProcess: Sendable, Codable, Hashable {
    /// The process name.
    public var name: String
    /// The kernel's reason.
    public var reason: String
    /// Resident pages at the time.
    public var residentPages: Int?

    /// Creates a killed process.
    public init(name: String, reason: String, residentPages: Int? = nil) {
        self.name = name
        self.reason = reason
        self.residentPages = residentPages
    }
}
