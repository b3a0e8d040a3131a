public import Foundation

/// What the Index stage needs from a store; `CasefileStore` implements it on SQLite.
///
/// Core never imports the database library: the runner talks to this protocol, the executable wires the store in.
public protocol ReportIndex: Sendable {
    /// Whether an input with this content hash was already indexed or quarantined.
    ///
    /// Asked of every input, as are ``knownReports(_:)``, by many tasks at once: an index that can answer without
    /// waiting for its writes should (a run over small inputs spends more in such waits than in reading them).
    func isKnown(inputSHA256: String) async throws -> Bool
    /// The ``InputSignature`` each of these input paths had when it was last indexed or quarantined, read once per
    /// run for the inputs it lists.
    func inputSignatures(paths: [String]) async throws -> [String: String]
    /// Which of these report ids the index already holds (committed or in the open batch).
    func knownReports(_ ids: [String]) async throws -> Set<String>
    /// Which of these report ids the index holds from a run that is done: copies no input of the asking run can
    /// replace (``IndexOutcome/replacedReportIDs``), which the run only links to the input holding them again, so it
    /// need not symbolicate, fingerprint, correlate, render or encode them. A copy the asking run stored, or one a
    /// killed run stored whose work no run has finished yet, is not settled: a more complete copy may still replace
    /// it. Asked of every input that holds reports, as ``knownReports(_:)`` is.
    func settledReports(_ ids: [String]) async throws -> Set<String>
    /// Starts a run and returns its id.
    func beginRun(pipeline: String, inbox: String, startedAt: Date) async throws -> Int64
    /// How many runs before `run` were killed: never finished, and no later run finished their work yet.
    func runsKilled(before run: Int64) async throws -> Int
    /// Stores one input and its reports in one transaction.
    func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome
    /// Stores an input a part at a time, all in one savepoint (``InputInParts``): `next` gives each part in turn, and
    /// `nil` after the last; `written` is told what storing each part did. Both are called while the index holds its
    /// writer, on the writer's thread: they must not ask the index anything.
    func record(
        inParts input: InputInParts, run: Int64, next: @escaping @Sendable () throws -> IndexedInput?,
        written: @escaping @Sendable (IndexedInput, IndexOutcome) throws -> Void
    ) async throws -> IndexOutcome
    /// Stores an input that could not be processed, with the reason.
    func quarantine(_ input: InputRecord, error: InputError, run: Int64) async throws
    /// Closes a run with its figures.
    func finishRun(_ run: Int64, summary: RunSummary, finishedAt: Date) async throws
    /// The symbolication answers stored by earlier runs; an index reads those of an image when it is first asked
    /// about.
    func loadSymbolCache() async throws -> SymbolCache
    /// Stores the answers the cache gained in this run.
    func saveSymbolCache(_ cache: SymbolCache) async throws
    /// What earlier scans learned of the files in the symbol folders.
    func loadDebugFiles() async throws -> [String: DebugFileIndex.KnownFile]
    /// Makes what is known of the symbol folders' files this scan's; `known` is what ``loadDebugFiles()`` gave.
    func saveDebugFiles(
        _ files: [String: DebugFileIndex.KnownFile], replacing known: [String: DebugFileIndex.KnownFile]
    ) async throws
    /// The groups the run touched, new, regressed, and the top groups overall; details only for the groups the
    /// digest lists.
    func groupDigest(run: Int64, top: Int) async throws -> GroupDigest
    /// One group's page data, read when its page is written (one at a time: a run may touch thousands).
    func groupDetail(id: Int64) async throws -> BugGroupDetail?
}

/// One input as the index keys it.
public struct InputRecord: Sendable, Hashable {
    /// The input's path when it was read.
    public var path: String
    /// The SHA-256 of its content (see ``ContentHash``), or `nil` when it could not even be read.
    public var sha256: String?
    /// `file`, `archive` or `directory`.
    public var kind: String
    /// Its ``InputSignature`` when it was read.
    public var signature: String?

    /// Creates an input record.
    public init(path: String, sha256: String?, kind: String, signature: String? = nil) {
        self.path = path
        self.sha256 = sha256
        self.kind = kind
        self.signature = signature
    }
}

/// One input with the reports read from it, ready to be indexed.
public struct IndexedInput: Sendable {
    /// The input.
    public var record: InputRecord
    /// Its reports.
    public var reports: [Report]
    /// Entries that were passed over.
    public var notes: [String]
    /// Each report's summary file, relative to the output folder, by report id.
    public var summaryPaths: [String: String]
    /// Entries of the input that could not be read: quarantined with the input's other reports indexed.
    public var failedEntries: [InputError]
    /// Each crash's threads and images as a ``CrashDetailCodec`` blob with the sets of system images it names, by
    /// report id and crash position; made in parallel so the index writer only stores them.
    public var crashDetails: [String: [CrashDetail]] = [:]
    /// Each report's whole timeline events as an ``EventDetailCodec`` blob, by report id; made in parallel so the index
    /// writer only stores them. An empty blob stands for one that failed here: the writer tries again and reports the
    /// error.
    public var eventDetails: [String: [UInt8]] = [:]
    /// Each timeline event's one-line `summary`, by report id and event position; made in parallel so the index writer
    /// only stores them (an empty one is made again by the writer).
    public var eventSummaries: [String: [String]] = [:]
    /// Each crash report's ``SymbolCoverage`` as ``IndexJSON`` text, by report id: stored with the report, so that a
    /// run's digest can take it off when another copy of the report replaces this one. A report with a crash missing
    /// here has its coverage counted by the writer.
    public var symbolCoverage: [String: String] = [:]

    /// Creates an indexed input.
    public init(
        record: InputRecord, reports: [Report], notes: [String], summaryPaths: [String: String],
        failedEntries: [InputError] = []
    ) {
        self.record = record
        self.reports = reports
        self.notes = notes
        self.summaryPaths = summaryPaths
        self.failedEntries = failedEntries
    }
}

/// What indexing one input did.
public struct IndexOutcome: Sendable, Hashable {
    /// Whether the input itself was already in the index (the same content arrived twice in one run).
    public var inputWasKnown: Bool
    /// Reports stored for the first time.
    public var newReportIDs: [String]
    /// Reports already in the index from another input (the same report zipped and unzipped, say).
    public var duplicateReportIDs: [String]
    /// Reports another input of the same run had stored, whose copy this input replaced: more complete
    /// (``Report/completeness``), or as complete and from an input whose path sorts first. Their summaries are this
    /// input's copy's.
    public var replacedReportIDs: [String]
    /// The symbol coverage each replaced copy was stored with (``IndexedInput/symbolCoverage``; empty for a report
    /// without a crash), by report id, for the run's digest to take off. Only copies this run stored: one a killed run
    /// stored was never in this run's digest, and is not here.
    public var replacedCoverage: [String: SymbolCoverage]

    /// Creates an outcome.
    public init(
        inputWasKnown: Bool, newReportIDs: [String], duplicateReportIDs: [String], replacedReportIDs: [String] = [],
        replacedCoverage: [String: SymbolCoverage] = [:]
    ) {
        self.inputWasKnown = inputWasKnown
        self.newReportIDs = newReportIDs
        self.duplicateReportIDs = duplicateReportIDs
        self.replacedReportIDs = replacedReportIDs
        self.replacedCoverage = replacedCoverage
    }
}
