public import CasefileCore
public import Foundation
import GRDB
import Synchronization

/// The SQLite index of everything Casefile has read, on GRDB and the system `libsqlite3`.
///
/// Each input is written in one savepoint of a batched transaction, so a run that stops midway leaves only whole
/// inputs behind.
public final class IndexStore: Sendable {
    let queue: DatabaseQueue
    /// The batch of inputs in the open transaction (see `IndexStore+Batch.swift`).
    let batch = Mutex(Batch(inputs: 0, opened: .now))
    /// The batched writes asked for and not yet done: a light input is written on the asking thread only when there
    /// are none (`IndexStore+Batch.swift`).
    let batchedWrites = Atomic<Int>(0)
    /// When a batch is committed.
    let batchLimits: BatchLimits
    /// The database file, or `:memory:`.
    public let path: String
    /// Readers of the file, for the questions asked of every input; `nil` for an index in memory, which no other
    /// connection sees.
    let readers: IndexReaders?

    /// The journal of a writable index on disk. WAL (with `synchronous = NORMAL`, one of ``connectionPragmas``):
    /// each batch of inputs stays atomic and crash-safe without an fsync per commit, which a nightly run over a
    /// thousand inputs would otherwise spend most of its time on. Checkpoint (and fsync) every 32 MB of WAL rather
    /// than every 4 MB; the run checkpoints once more when it finishes.
    static let journalPragmas = ["PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 8192"]

    /// Every connection's settings. A batch of inputs dirties a few thousand pages; a page cache that holds them
    /// (16 MB) writes each page to the log once per batch instead of spilling and writing it again (the default cache
    /// is 2 MB). Each input's savepoint keeps the pages it changes in a statement journal; in memory, not in temp
    /// files written page by page.
    static let connectionPragmas = [
        "PRAGMA synchronous = NORMAL", "PRAGMA cache_size = -16384", "PRAGMA temp_store = MEMORY",
    ]

    /// Opens (creating if needed) the index at `path` and applies pending migrations; inputs are committed in
    /// batches bounded by `batchLimits`.
    public init(path: String, batchLimits: BatchLimits = .standard) throws(StoreError) {
        self.path = path
        self.batchLimits = batchLimits
        readers = path == ":memory:" ? nil : IndexReaders(path: path)
        _ = SQLiteSettings.applied
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(5)
            // Inputs are batched into transactions that stay open between calls (`IndexStore+Batch.swift`).
            configuration.allowsUnsafeTransactions = true
            configuration.prepareDatabase { db in
                if !db.configuration.readonly, path != ":memory:" {
                    for pragma in Self.journalPragmas { try db.execute(sql: pragma) }
                }
                for pragma in Self.connectionPragmas { try db.execute(sql: pragma) }
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            // A migration that rewrites a table keeps the table's pages in a statement journal, which spills to a
            // temporary file unless temporary storage is memory: `v20` dropping a column of a 170 MB table held
            // 170 MB in memory. Migrations run with files, then inputs' savepoints with memory (the setting cannot be
            // changed inside a transaction).
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = FILE") }
            try Schema.migrator.migrate(queue)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        } catch {
            throw StoreError(path: path, reason: "cannot open the index: \(error)")
        }
    }

    /// An index in memory, for tests and one-off runs.
    public static func inMemory() throws(StoreError) -> IndexStore {
        try IndexStore(path: ":memory:")
    }

    /// The names of the migrations this build knows, in order: an index it opens is migrated through the last.
    public static var migrations: [String] { Schema.migrator.migrations }

    /// The names of the migrations applied, in order.
    public func appliedMigrations() throws -> [String] {
        try queue.read { db in try Schema.migrator.appliedMigrations(db) }
    }
}

extension IndexStore: ReportIndex {
    /// Whether an input with this content hash is in the index, indexed or quarantined.
    ///
    /// Answered on the caller's thread by a reader of what was committed and what the open batch remembers
    /// (``IndexReaders``); an index in memory, or one a reader cannot read at once, is asked on the writer's queue.
    public func isKnown(inputSHA256: String) async throws -> Bool {
        if let readers {
            if batch.withLock({ $0.inputHashes.contains(inputSHA256) }) { return true }
            // After the batch: a batch committed meanwhile is forgotten only once its rows are the readers' to see.
            if let known = try? readers.isKnown(inputSHA256: inputSHA256) { return known }
        }
        return try await lookup { db in try Self.holdsInput(inputSHA256, db) }
    }

    /// The ``InputSignature`` each of these input paths had when it was last indexed or quarantined; paths the
    /// index never saw are absent.
    ///
    /// Only the paths asked about: an index kept for a year over an inbox whose inputs are moved away once read holds
    /// millions of paths no run will see again (2,000,000 took 4–6 s and 560 MB to read at every run's start).
    public func inputSignatures(paths: [String]) async throws -> [String: String] {
        try await queue.read { db in
            var signatures: [String: String] = [:]
            signatures.reserveCapacity(paths.count)
            // In chunks, within SQLite's limit on parameters; a path indexed twice keeps its latest signature.
            for start in stride(from: 0, to: paths.count, by: Self.pathsPerQuery) {
                let chunk = paths[start..<min(start + Self.pathsPerQuery, paths.count)]
                let marks = Schema.parameters(chunk.count)
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT path, signature FROM inputs WHERE signature IS NOT NULL AND path IN (\(marks))
                        ORDER BY id
                        """,
                    arguments: StatementArguments(Array(chunk)))
                while let row = try rows.next() {
                    signatures[row["path"]] = row["signature"]
                }
            }
            return signatures
        }
    }

    /// Paths per query of ``inputSignatures(paths:)``.
    static let pathsPerQuery = 500

    /// Whether an input of the content hash bound to it is in the index: asked by the readers, on the writer's
    /// connection when they cannot answer, and by ``record(_:run:)`` before it stores an input.
    static let knownInputSQL = "SELECT EXISTS(SELECT 1 FROM inputs WHERE sha256 = ?)"

    /// Whether `db` holds an input of content hash `sha256` (``knownInputSQL``), read without GRDB's rows
    /// (``RowReader``): asked for every input the writer stores.
    static func holdsInput(_ sha256: String, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: knownInputSQL).firstRow({ $0.bind(sha256) }, { $0.int64(0) }) == 1
    }

    /// Which of these reports the index holds, committed or in the open batch; answered as ``isKnown(inputSHA256:)``
    /// is.
    public func knownReports(_ ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        if let readers {
            let inBatch = batch.withLock { batch in ids.filter { batch.reportIDs.contains($0) } }
            let others = ids.filter { !inBatch.contains($0) }
            if others.isEmpty { return Set(inBatch) }
            if let known = try? readers.knownReports(others) { return known.union(inBatch) }
        }
        return try await lookup { db in
            let marks = Schema.parameters(ids.count)
            return Set(
                try String.fetchAll(
                    db.cachedStatement(sql: "SELECT id FROM reports WHERE id IN (\(marks))"),
                    arguments: StatementArguments(ids)))
        }
    }

    /// Which of these reports the index holds from a run that is done: copies ``ReportCopies`` keeps whatever copy
    /// comes next. Answered on the caller's thread by a reader of what was committed; the open batch holds only the
    /// asking run's reports, which are never settled.
    public func settledReports(_ ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        if let readers, let settled = try? readers.settledReports(ids) { return settled }
        return try await lookup { db in
            let statement = try db.cachedStatement(sql: Self.settledReportSQL)
            var settled: Set<String> = []
            for id in ids where try Bool.fetchOne(statement, arguments: [id]) == true { settled.insert(id) }
            return settled
        }
    }

    /// Whether the index holds the report of the id bound to it from a run that is done (neither the run asking nor
    /// a killed one whose work no run finished), or from before copies were compared (no completeness): the copy
    /// ``ReportCopies/Stored/givesWay(toCompleteness:from:)`` keeps against any other.
    static let settledReportSQL = """
        SELECT EXISTS(
            SELECT 1 FROM reports JOIN runs ON runs.id = reports.run_id
            WHERE reports.id = ? AND (reports.completeness IS NULL OR NOT \(Schema.killedRun)))
        """

    /// Runs one of the queries a run asks for every input. Not through `read`: on a database queue that sets and
    /// clears `PRAGMA query_only`, and changing a flag pragma expires every prepared statement, so each input's
    /// inserts were compiled again (6 % of a run's CPU went to SQLite's parser). The body only reads.
    private func lookup<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.unsafeRead(body)
    }

    /// Starts a run.
    public func beginRun(pipeline: String, inbox: String, startedAt: Date) async throws -> Int64 {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO runs (pipeline, inbox, started_at) VALUES (?, ?, ?)",
                arguments: [pipeline, inbox, startedAt])
            let run = db.lastInsertedRowID
            // A group is new only in the run that found it — or, when that run was killed, until a run finishes
            // its work.
            try db.execute(
                sql: """
                    UPDATE groups SET status = 'ongoing' WHERE status = 'new' AND first_run_id < ?
                    AND first_run_id IN (SELECT id FROM runs WHERE NOT \(Schema.killedRun))
                    """, arguments: [run])
            return run
        }
    }

    /// Stores one input and its reports in one transaction; a report already present is linked, not copied, unless
    /// its copy gives way to this input's (``ReportCopies``).
    public func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        try await batched(light: input.isLight) { db in
            guard let (sha256, inputID, now) = try self.insertInput(input.record, notes: input.notes, run: run, db)
            else {
                return (IndexOutcome(inputWasKnown: true, newReportIDs: [], duplicateReportIDs: []), BatchEntries())
            }
            var outcome = IndexOutcome(inputWasKnown: false, newReportIDs: [], duplicateReportIDs: [])
            var tally = OccurrenceTally()
            // Of copies of a report in this input, the one kept is written; the others are duplicates, linked below.
            let kept = Report.keptCopies(input.reports)
            var reportsStored = 0
            try Self.write(
                kept, of: input, inputID: inputID, run: run, at: now, &outcome, &tally, reportsStored: &reportsStored,
                db)
            if kept.count < input.reports.count {
                // Each report counted once, in the input's order; every further copy is a duplicate.
                var counted: Set<String> = []
                for report in input.reports {
                    if !counted.insert(report.id).inserted { outcome.duplicateReportIDs.append(report.id) }
                    try Self.link(report.id, input: inputID, root: report.source.root, db)
                }
            }
            try tally.write(db)
            try Self.quarantine(input.failedEntries, of: input.record.path, inputID: inputID, run: run, db)
            // Every report of the input is in the index now: stored, linked as a duplicate, or replacing a copy.
            return (outcome, BatchEntries(inputHashes: [sha256], reportIDs: input.reports.map(\.id)))
        }
    }

    /// Links report `id` to an input that holds it.
    static func link(_ id: String, input: Int64, root: String, _ db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO report_inputs (report_id, input_id, root) VALUES (?, ?, ?)"
        ).insert { row in
            row.bind(id)
            row.bind(input)
            row.bind(root)
        }
    }

    /// Stores a quarantined input; one whose content was readable is remembered so later runs skip it.
    public func quarantine(_ input: InputRecord, error: InputError, run: Int64) async throws {
        try await batched(light: true) { db in
            var inputID: Int64?
            if let sha256 = input.sha256 {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO inputs (sha256, path, kind, status, run_id, indexed_at, signature)
                        VALUES (?, ?, ?, 'quarantined', ?, ?, ?)
                        """,
                    arguments: [sha256, input.path, input.kind, run, Date(), input.signature])
                inputID = try Int64.fetchOne(db, sql: "SELECT id FROM inputs WHERE sha256 = ?", arguments: [sha256])
            }
            try db.execute(
                sql: """
                    INSERT INTO quarantine (input_id, run_id, path, entry, reason, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [inputID, run, input.path, error.entry, error.reason, Date()])
            return ((), BatchEntries(inputHashes: input.sha256.map { [$0] } ?? []))
        }
    }

    /// How many runs before `run` never finished and were not recovered by a run that did.
    public func runsKilled(before run: Int64) async throws -> Int {
        try await lookup { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM runs WHERE \(Schema.killedRun) AND id < ?",
                arguments: [run]) ?? 0
        }
    }

    /// Closes a run with its figures, and folds the write-ahead log into the database.
    public func finishRun(_ run: Int64, summary: RunSummary, finishedAt: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE runs SET finished_at = ?, inputs = ?, processed = ?, skipped = ?, quarantined = ?,
                    new_reports = ?, duplicate_reports = ?, seconds = ? WHERE id = ?
                    """,
                arguments: [
                    finishedAt, summary.inputs, summary.processed, summary.skipped, summary.quarantined.count,
                    summary.newReports, summary.duplicateReports, summary.seconds, run,
                ])
            // Runs killed before they finished: this run wrote their groups' pages and payloads.
            try db.execute(
                sql: "UPDATE runs SET recovered_by = ? WHERE \(Schema.killedRun) AND id < ?",
                arguments: [run, run])
        }
        // A failed checkpoint loses nothing: the log stays and the next run's checkpoint folds it in.
        _ = try? await queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
}
