import CasefileCore
import GRDB
import Synchronization

/// Inputs are written in batches: one transaction holds up to ``BatchLimits/inputs`` inputs (or
/// ``BatchLimits/seconds`` worth), each input in its own savepoint inside it. An input is still all or nothing — a
/// failing input rolls back to its savepoint and the batch goes on — and a run killed mid-batch loses only the
/// uncommitted inputs, which are not marked done and are read again by the next run. A batch shares the index pages
/// its inputs touch, so the write-ahead log gets each page once per batch instead of once per input.
extension IndexStore {

    /// Runs `body` as one savepoint of the open batch, opening a batch when none is open and committing it when it
    /// is full or old. `body` returns, with its result, what it stored that the batch remembers (``BatchEntries``): it
    /// is remembered once the savepoint is released, so an input rolled back leaves nothing behind.
    ///
    /// A `light` write (an input of a few rows, ``IndexedInput/isLight``) runs on the asking thread when no other
    /// batched write is asked for or running: the writer's queue runs it in place, without the hop to the writer's
    /// thread and back and its two thread wake-ups. Any other write is handed to the writer's thread and awaited, so a
    /// task waits behind another input's rows only when that input asked in the instant between the count and the
    /// write. Inputs that are copies of one report are written one after another (each waits for the one before it to
    /// store the report: `ReportClaims`), so every hop adds to the run: over 100,000 small copies of one report, in
    /// memory, a first run took 12.6 → 8.4 s wall and 21.9 → 15.9 s of processor (medians of 4 alternating rounds; on
    /// disk 10.1-17.3 → 7.9-10.4 s). Heavy inputs stay on the writer's thread. Written in place too, the bench's 1,000
    /// inputs took as long in memory (20 alternating rounds: -0.8 % wall) but 4-11 % longer on disk (three sets of
    /// 10-12 alternating rounds; the cause was not found, perhaps a task waiting in the kernel under a large crash's
    /// rows while holding one of the two cores). With heavy inputs on the writer's thread, the 1,000 inputs took 1.37 s
    /// on disk as before (medians of 10 alternating rounds) (2026-12-04).
    ///
    /// Kept out of cross-module optimization: with it, Swift 6.3.1 crashed compiling `casefile-benchmarks` (which calls
    /// `record`) from a clean build, reading back GRDB's `SerializedDatabase.execute` specialized for `IndexOutcome`
    /// ("base is not a nominal type (Connection)"). The callers in this module are optimized as before.
    @_semantics("optimize.no.crossmodule")
    func batched<T: Sendable>(
        light: Bool, _ body: @escaping @Sendable (Database) throws -> (T, BatchEntries)
    ) async throws -> T {
        if light, batchedWrites.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            defer { batchedWrites.subtract(1, ordering: .releasing) }
            return try batchedInPlace(body)
        }
        batchedWrites.add(1, ordering: .acquiringAndReleasing)
        defer { batchedWrites.subtract(1, ordering: .releasing) }
        return try await queue.writeWithoutTransaction { db in try self.inBatch(db, body) }
    }

    /// `batched` on the asking thread. Synchronous, so that the queue's synchronous write is the one called: it runs
    /// the block in place when the queue is idle, and waits only for a write that is not batched (a run's start, the
    /// symbol cache), which the count in ``IndexStore/batchedWrites`` does not see.
    private func batchedInPlace<T>(_ body: (Database) throws -> (T, BatchEntries)) throws -> T {
        try queue.writeWithoutTransaction { db in try inBatch(db, body) }
    }

    /// `body` in a savepoint of the open batch, on the writer's connection `db`.
    private func inBatch<T>(_ db: Database, _ body: (Database) throws -> (T, BatchEntries)) throws -> T {
        // An error SQLite answers by rolling the whole transaction back (a full disk) takes the batch with it.
        defer { forgetBatchUnlessOpen(db) }
        if !db.isInsideTransaction {
            try db.beginTransaction(.immediate)
            batch.withLock { $0 = Batch(inputs: 0, opened: .now) }
        }
        let (value, entries) = try Self.inSavepoint(db) { try body(db) }
        let full = batch.withLock { batch in
            batch.inputs += 1
            batch.inputHashes.formUnion(entries.inputHashes)
            batch.reportIDs.formUnion(entries.reportIDs)
            return batch.inputs >= batchLimits.inputs || batch.opened.duration(to: .now) >= batchLimits.seconds
        }
        if full { try commit(db) }
        return value
    }

    /// Runs `body` in a transaction of its own, after committing the open batch.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.writeWithoutTransaction { db in try self.transaction(db, body) }
    }

    /// Runs `body` in a savepoint of the open transaction: what it wrote stays when it returns and is rolled back when
    /// it throws.
    ///
    /// GRDB's `inSavepoint` does the same, but compiles its statements each time it runs them (17 % of the writer's
    /// time over 20,000 small inputs, one savepoint each); these are compiled once. As there, a transaction SQLite
    /// rolled back on its own (a full disk) is an error, not a savepoint released into nothing: the batch is gone.
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT input").execute()
        let value: T
        do {
            value = try body()
        } catch {
            // Rolling back to the savepoint leaves it open; releasing it then ends it. With the whole transaction
            // already rolled back there is nothing to roll back, and the first error is the one to report.
            if db.isInsideTransaction {
                try? db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT input").execute()
                try? db.cachedStatement(sql: "RELEASE SAVEPOINT input").execute()
            }
            throw error
        }
        guard db.isInsideTransaction else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the batch's transaction was rolled back")
        }
        try db.cachedStatement(sql: "RELEASE SAVEPOINT input").execute()
        return value
    }

    /// Runs `body` in a transaction of its own, after committing the open batch; blocking.
    func writeNow<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in try transaction(db, body) }
    }

    /// Commits the open batch, if any.
    public func commitBatch() async throws {
        try await queue.writeWithoutTransaction { db in
            if db.isInsideTransaction { try self.commit(db) }
        }
    }

    /// Commits the open batch. Once it is committed (or gone), what it stored is the readers' to see and no longer
    /// remembered; a commit that fails and leaves the batch open keeps it.
    private func commit(_ db: Database) throws {
        defer { forgetBatchUnlessOpen(db) }
        try db.commit()
    }

    /// Forgets what the batch stored once no transaction is open: committed, its rows are the readers' to see; rolled
    /// back, they are gone.
    private func forgetBatchUnlessOpen(_ db: Database) {
        if !db.isInsideTransaction { batch.withLock { $0 = Batch(inputs: 0, opened: .now) } }
    }

    private func transaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        if db.isInsideTransaction { try commit(db) }
        var result: T?
        try db.inTransaction {
            result = try body(db)
            return .commit
        }
        return result!
    }
}

/// When a batch of inputs is committed.
public struct BatchLimits: Sendable {
    /// Inputs per committed transaction.
    public var inputs: Int
    /// The longest a batch stays open, so a killed run loses little work.
    public var seconds: Duration

    /// 256 inputs or two seconds, whichever comes first.
    ///
    /// Larger batches write the index pages their inputs share (the upper levels of every index, the groups a bug's
    /// reports count in) to the log fewer times. Over the benchmark's inbox of 10,000 inputs, 256 rather than 64 inputs
    /// a batch made 237,000 page writes (`pwrite`) instead of 377,000, 76,000 page reads instead of 92,000 and 38 syncs
    /// instead of 62, at the same peak memory; 512 and 1,024 saved no more (235,000 and 234,000 writes). The page
    /// cache (16 MB) still holds a batch of 256: with 64 MB the run wrote as many pages (2026-12-04).
    public static let standard = BatchLimits(inputs: 256, seconds: .seconds(2))

    /// Creates limits.
    public init(inputs: Int, seconds: Duration) {
        self.inputs = max(1, inputs)
        self.seconds = seconds
    }
}

/// The open batch: how many inputs it holds, when it was opened, and what it stored that a run asks about before it
/// stores an input (``IndexReaders`` read only what was committed). Inputs and reports are written into the open batch
/// only through `batched`, which adds them here; anything else that writes either commits the batch first (`write`),
/// or ``IndexStore/isKnown(inputSHA256:)`` and ``IndexStore/knownReports(_:)`` would not see it until the commit.
struct Batch {
    var inputs: Int
    var opened: ContinuousClock.Instant
    /// The content hashes of the inputs it stored, indexed or quarantined.
    var inputHashes: Set<String> = []
    /// The reports it stored.
    var reportIDs: Set<String> = []
}

/// What one input's savepoint stored that the open batch remembers.
struct BatchEntries {
    /// The input's content hash, when it stored one.
    var inputHashes: [String] = []
    /// The reports it stored or linked.
    var reportIDs: [String] = []
}

extension IndexedInput {
    /// The most rows and events an input may hold to be a light write (``IndexStore/batched(light:_:)``). An in-app
    /// signal or exception report holds 5-20 frames; a real crash report lists hundreds of frames and images, and a
    /// recording hundreds of events.
    static let lightWeight = 100

    /// Whether the input is small enough to be written on the asking thread: its events, frames and images together
    /// are at most ``lightWeight``.
    var isLight: Bool {
        var weight = 0
        for report in reports {
            weight += report.timeline.events.count
            for crash in report.crashes {
                weight += crash.images.count + crash.frameCount
            }
            if weight > Self.lightWeight { return false }
        }
        return true
    }
}
