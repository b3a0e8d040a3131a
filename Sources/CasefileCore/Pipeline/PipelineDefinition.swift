public import CasefileArchive
public import Foundation
import TOMLKit

/// A versioned pipeline definition (`Pipelines/*.toml`): where reports arrive, where results go, and the limits.
///
/// Relative paths are resolved against the folder of the definition file, so cron can run Casefile from anywhere.
/// `version` is read first; an unknown version is refused with the supported range.
public struct PipelineDefinition: Sendable {
    /// The versions of the definition format this build reads.
    public static let supportedVersions = 1...1

    /// The definition format version.
    public var version: Int
    /// The folder scanned for inputs.
    public var inbox: URL
    /// Glob patterns (`*`, `?`) of names or inbox-relative paths that are not inputs, e.g. `*.md`.
    public var ignore: [String]
    /// The folder summaries are written to.
    public var output: URL
    /// The SQLite index.
    public var database: URL
    /// Bounds for unpacking each input.
    public var limits: ArchiveLimits
    /// The cores the run keeps busy (`concurrency` at the top of the definition); the core count when not set. Six
    /// inputs per core are in flight, so that a core has work while inputs wait for the single index writer.
    public var concurrency: Int
    /// The bytes the inputs in flight may hold unpacked together (`[limits] max_bytes_in_flight`); a new input waits
    /// for room, and one input larger than this is read alone. Media entries, streamed and not kept, count nothing.
    public var bytesInFlight = Self.defaultBytesInFlight
    /// The crash reports an input holds at most to be read and stored whole (`[limits] reports_per_part`). An input of
    /// more crash files and no recording (a tester's zip of crash logs), unpacking to more than ``partsPastBytes``, is
    /// read and stored that many reports at a time, still in one transaction (``InputInParts``): its memory is then its
    /// files compressed and one part's reports, not all its files and all its reports.
    public var reportsPerPart = Self.defaultReportsPerPart
    /// The bytes an input's files must expand to for it to be read in parts (``reportsPerPart``): 64 MiB. Parts cost
    /// a second parse of each file; they pay where the input read whole nears the run's memory goal of 150 MB. A zip of
    /// 837 crash files (83 MB unpacked) peaked at 154–163 MB read whole and 111 MB in parts, in 1.24–1.30 s and
    /// 1.78–1.82 s; one of 423 (41 MB) at 105–111 MB whole and 91–92 MB in parts, in 0.66–0.71 and 0.92–0.96 s.
    package var partsPastBytes = 64 << 20
    /// Folders of debug files (`.dSYM` bundles, Mach-O binaries) to symbolicate crashes with.
    public var symbolFolders: [URL]
    /// Whether summaries show the screen video's frame at each failure and crash (`[output] frames`; on by
    /// default, and only when `ffmpeg` is on the `PATH`).
    public var frames = true
    /// How crashes and failures are grouped (`[grouping]`).
    public var grouping: GroupingRules = .default
    /// The resolution of a crash's primary key (`[grouping] primary`).
    public var primaryResolution: Fingerprint.Resolution = .top3
    /// What is masked before anything is written (`[redaction]`).
    public var redaction: RedactionRules = .standard
    /// Where `casefile publish` sends the outbox (`[tracker]`).
    public var tracker: TrackerSettings = .none

    /// The default of ``bytesInFlight``: 12 MiB. Over 24 long recordings (10,000 events, 3.6 MB each) the run peaked at
    /// 109–115 MiB as folders and 134–138 MiB as zips with it (zips go over by what the few admitted on an estimate
    /// before they were unpacked hold), 123–126 and 145 MiB with 16 MiB, 96 and 126–129 MiB with 8 MiB, and 265–270 MiB
    /// with no such bound; its time was the same within the machine's spread. The inputs in flight of an inbox of
    /// ordinary reports (up to 400 KB each) never fill it.
    public static let defaultBytesInFlight = 12 << 20

    /// The default of ``reportsPerPart``: 64. A real crash report held parsed, symbolicated and encoded takes about
    /// 0.1 MB, so a part takes about 6 MB.
    public static let defaultReportsPerPart = 64

    /// The Fingerprint stage as this definition configures it.
    public var fingerprinter: Fingerprinter {
        Fingerprinter(rules: grouping, primary: primaryResolution)
    }

    /// Creates a definition from values.
    public init(
        inbox: URL, output: URL, database: URL, ignore: [String] = [], limits: ArchiveLimits = .default,
        concurrency: Int? = nil, symbolFolders: [URL] = []
    ) {
        self.version = Self.supportedVersions.upperBound
        self.inbox = inbox
        self.ignore = ignore
        self.output = output
        self.database = database
        self.limits = limits
        self.concurrency = max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        self.symbolFolders = symbolFolders
    }

    /// Reads a definition file.
    public static func load(from path: String) throws(ConfigurationError) -> PipelineDefinition {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw ConfigurationError(file: path, reason: "cannot read the pipeline definition (missing or not UTF-8)")
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try PipelineDefinition(toml: text, file: path, baseDirectory: base)
    }

    /// Parses definition text; `file` names it in errors, `baseDirectory` anchors relative paths.
    public init(toml: String, file: String, baseDirectory: URL) throws(ConfigurationError) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: toml)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            throw ConfigurationError(
                file: file,
                reason: "not valid TOML at line \(position.line), column \(position.column): \(error.description)")
        } catch {
            throw ConfigurationError(file: file, reason: "not valid TOML: \(error)")
        }
        var reader = TableReader(file: file, table: table, path: "")
        guard let version = try reader.int("version") else {
            throw ConfigurationError(file: file, keyPath: "version", reason: "missing; this build reads version 1")
        }
        guard Self.supportedVersions.contains(version) else {
            let range = Self.supportedVersions
            throw ConfigurationError(
                file: file, keyPath: "version",
                reason:
                    "version \(version) is not supported; this build reads versions \(range.lowerBound) to \(range.upperBound)"
            )
        }
        var inbox = try reader.table("inbox")
        var output = try reader.table("output")
        var limitsTable = try reader.table("limits")
        var symbolsTable = try reader.table("symbols")
        var groupingTable = try reader.table("grouping")
        var redactionTable = try reader.table("redaction")
        var trackerTable = try reader.table("tracker")
        func resolve(_ value: String) -> URL {
            value.hasPrefix("/")
                ? URL(fileURLWithPath: value) : baseDirectory.appendingPathComponent(value).standardizedFileURL
        }
        guard let inboxPath = try inbox.string("path") else {
            throw ConfigurationError(
                file: file, keyPath: "inbox.path", reason: "missing; name the folder reports arrive in")
        }
        let outputPath = try output.string("path") ?? "out"
        let databasePath = try output.string("database") ?? "\(outputPath)/casefile.sqlite"
        var limits = ArchiveLimits.default
        limits.maxEntries = try limitsTable.positiveInt("max_entries") ?? limits.maxEntries
        limits.maxEntryBytes = try limitsTable.positiveInt("max_entry_bytes") ?? limits.maxEntryBytes
        limits.maxTotalBytes = try limitsTable.positiveInt("max_total_bytes") ?? limits.maxTotalBytes
        limits.maxCompressionRatio = try limitsTable.positiveInt("max_compression_ratio") ?? limits.maxCompressionRatio
        limits.maxNestingDepth = try limitsTable.positiveInt("max_nesting_depth") ?? limits.maxNestingDepth
        let concurrency = try reader.positiveInt("concurrency")
        self.init(
            inbox: resolve(inboxPath), output: resolve(outputPath), database: resolve(databasePath),
            ignore: try inbox.strings("ignore") ?? [], limits: limits, concurrency: concurrency,
            symbolFolders: (try symbolsTable.strings("paths") ?? []).map(resolve))
        bytesInFlight = try limitsTable.positiveInt("max_bytes_in_flight") ?? Self.defaultBytesInFlight
        reportsPerPart = try limitsTable.positiveInt("reports_per_part") ?? Self.defaultReportsPerPart
        frames = try output.bool("frames") ?? true
        (grouping, primaryResolution) = try Self.grouping(&groupingTable)
        redaction = try Self.redaction(&redactionTable)
        tracker = TrackerSettings(
            baseURL: try trackerTable.string("url") ?? TrackerSettings.none.baseURL,
            repository: try trackerTable.string("repository"),
            tokenVariable: try trackerTable.string("token_env") ?? TrackerSettings.none.tokenVariable,
            labels: try trackerTable.strings("labels") ?? [], reportsURL: try trackerTable.string("reports_url"))
        if let repository = tracker.repository, repository.split(separator: "/").count != 2 {
            throw ConfigurationError(
                file: file, keyPath: "tracker.repository", reason: "expected owner/name, got '\(repository)'")
        }
        for table in [reader, inbox, output, limitsTable, symbolsTable, groupingTable, redactionTable, trackerTable] {
            try table.rejectUnknownKeys()
        }
    }
}

extension PipelineDefinition {
    /// `[grouping]`: the lists add to the built-in ones; `rules` are overrides like `image:Firebase* -app`.
    fileprivate static func grouping(
        _ table: inout TableReader
    ) throws(ConfigurationError) -> (GroupingRules, Fingerprint.Resolution) {
        var rules = GroupingRules.default
        var primary = Fingerprint.Resolution.top3
        if let name = try table.string("primary") {
            guard let resolution = Fingerprint.Resolution(rawValue: name), [.top1, .top3, .topN].contains(resolution)
            else {
                throw ConfigurationError(
                    file: table.file, keyPath: "grouping.primary", reason: "expected top1, top3 or topN, got '\(name)'")
            }
            primary = resolution
        }
        rules.allFrames = try table.positiveInt("frames") ?? rules.allFrames
        rules.inAppImages += try table.strings("in_app") ?? []
        rules.sentinel += try table.strings("sentinel") ?? []
        rules.irrelevant += try table.strings("irrelevant") ?? []
        rules.prefix += try table.strings("prefix") ?? []
        for (index, line) in (try table.strings("rules") ?? []).enumerated() {
            guard let override = GroupingRules.Override(line) else {
                throw ConfigurationError(
                    file: table.file, keyPath: "grouping.rules[\(index)]",
                    reason:
                        "'\(line)' is not a rule; write 'image:GLOB +app', 'image:GLOB -app', 'image:GLOB -group' or 'function:GLOB -group'"
                )
            }
            rules.overrides.append(override)
        }
        return (rules, primary)
    }
}

extension PipelineDefinition {
    /// `[redaction]`: `headers`, `keys` and `patterns` add to the built-in rules; `emails`, `phones` and `tokens`
    /// turn a kind of free-text detection off. Nothing built in can be removed.
    fileprivate static func redaction(_ table: inout TableReader) throws(ConfigurationError) -> RedactionRules {
        var rules = RedactionRules.standard
        rules.headers += try table.strings("headers") ?? []
        rules.keys += try table.strings("keys") ?? []
        rules.emails = try table.bool("emails") ?? rules.emails
        rules.phones = try table.bool("phones") ?? rules.phones
        rules.tokens = try table.bool("tokens") ?? rules.tokens
        for (index, pattern) in (try table.strings("patterns") ?? []).enumerated() {
            guard (try? Regex(pattern)) != nil else {
                throw ConfigurationError(
                    file: table.file, keyPath: "redaction.patterns[\(index)]",
                    reason: "'\(pattern)' is not a valid regular expression")
            }
            rules.patterns.append(pattern)
        }
        return rules
    }
}

/// Reads typed keys out of a TOML table, remembering which keys were read so unknown ones can be refused.
private struct TableReader {
    let file: String
    let table: TOMLTable?
    let path: String
    var read: Set<String> = []

    init(file: String, table: TOMLTable?, path: String) {
        self.file = file
        self.table = table
        self.path = path
    }

    private func keyPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    mutating func value(_ key: String) -> (any TOMLValueConvertible)? {
        read.insert(key)
        return table?[key]
    }

    mutating func int(_ key: String) throws(ConfigurationError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.int else {
            throw ConfigurationError(file: file, keyPath: keyPath(key), reason: "expected an integer")
        }
        return int
    }

    mutating func positiveInt(_ key: String) throws(ConfigurationError) -> Int? {
        guard let int = try int(key) else { return nil }
        guard int > 0 else {
            throw ConfigurationError(
                file: file, keyPath: keyPath(key), reason: "expected a positive integer, got \(int)")
        }
        return int
    }

    mutating func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let bool = value.bool else {
            throw ConfigurationError(file: file, keyPath: keyPath(key), reason: "expected true or false")
        }
        return bool
    }

    mutating func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else {
            throw ConfigurationError(file: file, keyPath: keyPath(key), reason: "expected a string")
        }
        return string
    }

    mutating func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else {
            throw ConfigurationError(file: file, keyPath: keyPath(key), reason: "expected an array of strings")
        }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.string else {
                throw ConfigurationError(file: file, keyPath: "\(keyPath(key))[\(index)]", reason: "expected a string")
            }
            strings.append(string)
        }
        return strings
    }

    mutating func table(_ key: String) throws(ConfigurationError) -> TableReader {
        guard let value = value(key) else { return TableReader(file: file, table: nil, path: keyPath(key)) }
        guard let nested = value.table else {
            throw ConfigurationError(file: file, keyPath: keyPath(key), reason: "expected a table ([\(keyPath(key))])")
        }
        return TableReader(file: file, table: nested, path: keyPath(key))
    }

    func rejectUnknownKeys() throws(ConfigurationError) {
        guard let table else { return }
        if let unknown = table.keys.sorted().first(where: { !read.contains($0) }) {
            throw ConfigurationError(
                file: file, keyPath: keyPath(unknown),
                reason: "unknown key; known keys here are \(read.sorted().joined(separator: ", "))")
        }
    }
}
