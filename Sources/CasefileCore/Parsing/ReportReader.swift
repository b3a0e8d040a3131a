public import CasefileArchive
import Crypto

/// The Detect + Parse stage: turns everything read out of one input into reports.
public struct ReportReader: Sendable {
    /// What is masked in every report before anyone sees it.
    public var redactor: Redactor

    /// Creates a reader that masks secrets with `redactor`.
    public init(redactor: Redactor = .standard) {
        self.redactor = redactor
    }

    /// The reports of one input, plus a note for each entry that was passed over.
    public struct Output: Sendable {
        /// The reports found, in the order their files appeared.
        public var reports: [Report]
        /// Entries passed over, one line each, naming the entry.
        public var notes: [String]
        /// Entries that are reports but could not be read: quarantined on their own while the rest is indexed.
        public var failures: [InputError] = []
    }

    /// Parses every report in `input`; throws when the input holds none, or when an entry kept in its spill file
    /// could not be read back (``SpillFile/firstEntryNotReadBack``), so the caller can quarantine it.
    ///
    /// Each entry's bytes are let go once the entry is read, so an input of many reports does not hold its files and
    /// its parsed reports at once: hand `input` over (`consume`) for that to lower the peak.
    public func read(_ input: consuming UnpackedInput) throws(InputError) -> Output {
        var located = ReportLocator.locate(input)
        let (path, kind, isEmpty) = (input.path, input.kind, input.entries.isEmpty)
        let spill = input.spillFile
        var notes = input.notes
        input.entries = []
        var reports = Self.parsePackages(&located.packages)
        var failures: [InputError] = []
        var attachments: [(path: String, attach: (Report) -> Report)] = []
        let registries = located.unrecognized.filter { DataSnapshotParser.isRegistry($0.path) }
        let snapshotFolders = registries.map { DataSnapshotParser.folder(of: $0.path) }
        var leftovers: [ArchiveEntry] = []
        // The entries a registry reads are left for it, with their bytes.
        let reads = Self.readEach(
            &located.unrecognized, input: (path, kind),
            twoThreads: located.unrecognized.count >= SideBySide.reports,
            skipping: { entry in
                DataSnapshotParser.isRegistry(entry.path)
                    || snapshotFolders.contains(where: { !$0.isEmpty && entry.path.hasPrefix($0 + "/") })
            })
        for (entry, read) in zip(located.unrecognized, reads) {
            switch read {
            case .media: notes.append(Self.Passed.media.note(entry.path))
            case .skipped: continue
            case .reading(.report(let report)): reports.append(report)
            case .reading(.failure(let failure)): failures.append(failure)
            case .reading(.attachment(let attach)): attachments.append((entry.path, attach))
            case .reading(.unrecognized): leftovers.append(entry)
            }
        }
        for registry in registries {
            // A registry at the input's root takes only what nothing else read.
            let folder = DataSnapshotParser.read(
                registry: registry,
                entries: registry.path.contains("/") ? located.unrecognized : leftovers)
            leftovers.removeAll { entry in folder.snapshots.payloads.contains { $0.file == entry.path } }
            attachments.append((registry.path, { AttachmentAligner.attach(folder, to: $0) }))
        }
        // An entry that could not be read back from the spill file read as empty, so what it held is missing: the
        // input is quarantined whole, naming it, rather than stored without it (as ``Parts/next()`` does).
        if let lost = spill?.firstEntryNotReadBack {
            throw InputError(input: path, entry: lost, reason: Self.notReadBack)
        }
        for entry in leftovers {
            notes.append(Self.Passed.unrecognized.note(entry.path))
        }
        for attachment in attachments {
            guard let target = Self.target(for: attachment.path, among: reports) else {
                notes.append(Self.Passed.attachment.note(attachment.path))
                continue
            }
            reports[target] = attachment.attach(reports[target])
        }
        guard !reports.isEmpty else {
            if failures.isEmpty, let first = attachments.first {
                let others = attachments.count - 1
                throw InputError(
                    input: path,
                    reason:
                        "only attachments (app log, debug-menu dump, data snapshots) and no report to attach them to: '\(first.path)'"
                        + (others > 0 ? " and \(others) other attachments" : ""))
            }
            throw failures.first
                ?? InputError(input: path, reason: Self.emptyReason(kind: kind, isEmpty: isEmpty, located))
        }
        // Each report is redacted where it lies: through `map`, the array still held the report, so redacting a
        // recording's timeline first copied every event of it.
        for index in reports.indices { redactor.redact(&reports[index]) }
        return Output(reports: reports, notes: notes, failures: failures)
    }

    /// Why an input is quarantined when one of its entries, kept in the spill file while the input was read, could
    /// not be read back from it.
    static let notReadBack =
        "its bytes, kept compressed in a spill file beside the index while the input was read, could not be read back "
        + "(an error of the disk the output is on); nothing of the input was stored"

    /// What reading one entry gave.
    enum Read {
        /// A media file outside a recording: no bytes were kept.
        case media
        /// An entry a data snapshot registry reads (`skipping`), with its bytes kept.
        case skipped
        /// What the entry is; one in no format read here keeps its bytes (a registry at the input's root may read
        /// it).
        case reading(EntryReading)
    }

    /// Reads each of `entries`, in order, letting go of the bytes of each read into a report, a failure or an
    /// attachment; on two threads when `twoThreads`, either of which may ask `skipping`. Each report's strings are
    /// shared with those of the reports read before it on its thread (``RepeatedStrings``).
    static func readEach(
        _ entries: inout [ArchiveEntry], input: (path: String, kind: UnpackedInput.Kind), twoThreads: Bool,
        skipping: (ArchiveEntry) -> Bool
    ) -> [Read] {
        let crashParser = CrashReportParser()
        let count = entries.count
        return entries.withUnsafeMutableBufferPointer { entries in
            SideBySide.map(
                count: count, concurrently: twoThreads, state: RepeatedStrings(entries: count)
            ) { repeated, position in
                let entry = entries[position]
                guard let stored = entry.bytes else { return .media }
                if skipping(entry) { return .skipped }
                // A crash report, an app log or a debug-menu dump saved on Windows is UTF-16 with a byte order mark
                // (Notepad's "Unicode", PowerShell's `>`) or UTF-8 with one: every parser reads it as plain UTF-8.
                let bytes = UTF16Text.withoutByteOrderMark(stored)
                var reading = Self.reading(bytes, of: entry, input: input, crashParser: crashParser)
                if case .unrecognized = reading { return .reading(reading) }
                // What is read into a report or an attachment no longer needs its bytes.
                entries[position].contents = .bytes([])
                guard case .report(var report) = reading else { return .reading(reading) }
                // Shared once `reading` lets go of it: else its arrays would be copied as sharing changes them.
                reading = .unrecognized
                repeated.share(&report)
                return .reading(.report(report))
            }
        }
    }

    /// Why an entry was passed over: each gives the input's note for it.
    enum Passed: String {
        case media = "media outside a report"
        case unrecognized = "not a recognized report format"
        case attachment = "attachment with no report to attach to"

        /// The note for the entry at `path`.
        func note(_ path: String) -> String {
            "entry '\(path)': \(rawValue); ignored"
        }
    }

    /// What one entry outside a recording is.
    enum EntryReading {
        /// A crash report.
        case report(Report)
        /// A crash report that could not be read.
        case failure(InputError)
        /// An app log or a debug-menu dump, to attach to a report.
        case attachment((Report) -> Report)
        /// None of these.
        case unrecognized
    }

    /// Reads one entry outside a recording, `bytes` being its contents without a byte order mark.
    static func reading(
        _ bytes: [UInt8], of entry: ArchiveEntry, input: (path: String, kind: UnpackedInput.Kind),
        crashParser: CrashReportParser
    ) -> EntryReading {
        if let kind = DebugMenuParser.kind(of: entry.path),
            let dump = DebugMenuParser.parse(bytes, file: entry.path, kind: kind)
        {
            return .attachment { AttachmentAligner.attach(dump, file: entry.path, to: $0) }
        }
        switch crashParser.parse(bytes, file: entry.path) {
        case .crashes(let crashKind, let crashes, let warnings):
            return .report(Self.report(crashes, kind: crashKind, entry: entry, input: input, warnings: warnings))
        case .unreadable(let reason):
            return .failure(InputError(input: input.path, entry: entry.path, reason: reason))
        case .notACrashReport:
            if let lines = AppLogParser.parse(bytes) {
                return .attachment { AttachmentAligner.attach(lines, file: entry.path, to: $0) }
            }
            return .unrecognized
        }
    }

    /// The reports of `packages`, in order, letting go of each package's files once it is parsed.
    private static func parsePackages(_ packages: inout [CluePackage]) -> [Report] {
        let parser = ClueReportParser()
        var reports: [Report] = []
        reports.reserveCapacity(packages.count)
        packages.reverse()
        while let package = packages.popLast() {
            reports.append(parser.parse(package))
        }
        return reports
    }

    /// The report an attachment belongs to: the recording whose folder holds it, else the only recording of the
    /// input, else the only report.
    private static func target(for path: String, among reports: [Report]) -> Int? {
        let recordings = reports.indices.filter { reports[$0].format == .clue }
        let sameFolder = recordings.last { index in
            let root = reports[index].source.root
            return root.isEmpty || path.hasPrefix(root + "/")
        }
        if let sameFolder { return sameFolder }
        if recordings.count == 1 { return recordings.first }
        return recordings.isEmpty && reports.count == 1 ? 0 : nil
    }

    /// A report for a crash file: identified by its crashes' own identity (see ``Crash/identity``), not by the
    /// file's bytes, so the same incident mailed twice, re-encoded or in another format is one report.
    static func report(
        _ crashes: [Crash], kind: CrashReportParser.Kind, entry: ArchiveEntry,
        input: (path: String, kind: UnpackedInput.Kind), warnings: [Diagnostic]
    ) -> Report {
        let first = crashes.first
        let device = Device(model: first?.deviceModel, systemName: first?.os.name, systemVersion: first?.os.version)
        return Report(
            id: ContentHash.hex(SHA256.hash(data: Array(crashes.map(\.identity).joined(separator: "\n").utf8))),
            format: ReportFormat(kind),
            source: ReportSource(input: input.path, root: input.kind == .file ? "" : entry.path),
            device: device, app: first?.app, crashes: crashes, warnings: warnings)
    }

    private static func emptyReason(kind: UnpackedInput.Kind, isEmpty: Bool, _ located: ReportLocator.Located) -> String
    {
        if isEmpty {
            return "empty report: the \(kind.rawValue) holds no files"
        }
        if located.unrecognized.isEmpty {
            return "empty report: only placeholder files (.DS_Store, __MACOSX) and no report data"
        }
        let first = located.unrecognized[0].path
        let others = located.unrecognized.count - 1
        return
            "no report found: '\(first)'\(others > 0 ? " and \(others) other entries" : "") in no format Casefile reads"
    }
}

/// Why an input yielded no report, or could not be read: one line naming the input and, when known, the entry.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input file or directory.
    public var input: String
    /// The entry inside the input, when the problem is one entry.
    public var entry: String?
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(input: String, entry: String? = nil, reason: String) {
        self.input = input
        self.entry = entry
        self.reason = reason
    }

    /// Wraps an unpacking failure.
    public init(_ error: ArchiveError) {
        self.init(input: error.input, entry: error.entry, reason: error.reason)
    }

    /// `input: entry 'X': reason`.
    public var description: String {
        if let entry {
            return "\(input): entry '\(entry)': \(reason)"
        }
        return "\(input): \(reason)"
    }
}
