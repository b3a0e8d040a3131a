import GRDB

/// An insert into one table of several rows at once, `INSERT INTO t (…) VALUES (…), (…), …`: up to
/// ``rowsPerStatement`` rows in each execution of the statement.
///
/// A statement executed once per row starts SQLite's program anew for each row: it opens a cursor on the table and on
/// each of its indexes, and frees its registers when it stops. Debian's SQLite is built without its lookaside allocator,
/// so each of those is a `malloc` and a `free`: about five for each row of `crash_frames`. One execution of several
/// rows opens the cursors once and reuses the registers. Replaying the 19,439 `crash_frames` rows of the bench's 1,000
/// inputs with SQLite alone (foreign keys checked, texts bound without copies; three runs each), 16 rows a statement
/// took SQLite's allocations from 5.1 to 0.6 a row, and its time from 0.031–0.045 s to 0.021–0.033 s.
struct MultiRowInsert: Sendable {
    /// The most rows one execution inserts: 16 rows of the widest table (`crash_frames`, 20 parameters a row) are 320
    /// parameters, well under SQLite's limit (32,766 since 3.32).
    static let rowsPerStatement = 16

    /// The texts of the statements for 1, 2, 4, 8 and 16 rows; each is prepared once per connection. A count in
    /// between is inserted as a sum of them (a crash's 34 frame rows as 16, 16 and 2): five statements a table to
    /// prepare, not sixteen, for at most three executions more.
    private let texts: [String]

    /// The insert `head` (`INSERT INTO t (a, b, c) VALUES`) of rows written as `row` (`(?, ?, 1)`: a literal may
    /// stand for a value that is the same in every row), then `tail` (an upsert's `ON CONFLICT …` clause, which SQLite
    /// applies to each row).
    init(_ head: String, row: String, tail: String = "") {
        texts = Self.sizes.map { count in
            head + " " + Array(repeating: row, count: count).joined(separator: ", ") + (tail.isEmpty ? "" : " " + tail)
        }
    }

    /// The rows one statement inserts, largest first.
    static let sizes = [16, 8, 4, 2, 1]

    /// The most rows inserted several to a statement; more are inserted one a statement.
    ///
    /// A statement of several rows keeps a statement journal (SQLite must be able to undo its earlier rows when a later
    /// one fails), and within an input's savepoint SQLite keeps the journal of every such statement that touched a page
    /// the savepoint had not yet journaled, until the savepoint ends; a statement of one row keeps none. A report of
    /// thousands of rows in one table made that the larger cost: over the bench's 24 recordings of 10,000 events, a run
    /// inserting every event 16 to a statement peaked at 181-183 MB and took 1.33-1.42 s, against 128-131 MB and
    /// 1.21-1.23 s one event a statement; SQLite alone inserting 100,000 rows in one savepoint, 12.6 MB and 0.41 s
    /// against 6.2 MB and 0.33 s. A crash's frames (34 rows in the bench's crashes), threads and images stay under it.
    static let rowsInStatementsOfSeveral = 64

    /// The most reports an input's savepoint stores with their rows several to a statement; the input's later reports
    /// insert theirs one a statement (``severalPerStatement(reportsStoredBefore:)``).
    ///
    /// Each statement of several rows that journals a page ends by truncating SQLite's statement journal back to where
    /// it began, and Debian's SQLite 3.40 (the journal in memory: `temp_store = MEMORY`) finds that place by walking
    /// the journal's list of 1 KB pieces from its start. The journal holds every page that was in the index before the
    /// input and that the input changed, so within one input each statement walks further than the one before. A
    /// statement of one row keeps no statement journal. A zip of 2,086 crash reports took 3.1 s into a new index, and
    /// 5.3–5.5 s into an index of 5,000 earlier inputs; 3.3–4.1 s with this bound (2026-12-05). An input of a few
    /// reports (every input of the bench's inbox) keeps the statements of several rows. Eight was not tuned: the walks
    /// an input's first reports take are short, and one row a statement costs about half a microsecond more a row.
    static let reportsWithSeveralPerStatement = 8

    /// Whether a report's rows go several to a statement, when its input's savepoint stored `reportsStoredBefore`
    /// reports before it: only among the first ``reportsWithSeveralPerStatement``.
    static func severalPerStatement(reportsStoredBefore: Int) -> Bool {
        reportsStoredBefore < reportsWithSeveralPerStatement
    }

    /// Inserts `count` rows into `db`, several to a statement when `several` allows it and they are at most
    /// ``rowsInStatementsOfSeveral``, else one a statement: `bind` is called with each position from 0 to `count - 1`,
    /// in order, and binds that row's parameters. Throws an SQLite error (a violated constraint, a full disk) as GRDB
    /// throws it; the rows executed before it stay inserted, as a savepoint's other statements do, and the caller rolls
    /// back.
    func run(count: Int, several allowed: Bool = true, in db: Database, _ bind: (Int, inout RowBinder) -> Void) throws {
        guard count > 0 else { return }
        let several = allowed && count <= Self.rowsInStatementsOfSeveral
        // A row's texts are copied here and bound without SQLite copying them again (``RowBinder``): a kilobyte a row,
        // one allocation for all the statement's executions.
        let scratch = UnsafeMutableRawBufferPointer.allocate(
            byteCount: 1024 * (several ? min(count, Self.rowsPerStatement) : 1), alignment: 1)
        defer { scratch.deallocate() }
        // The executions of one size come together: each statement is looked up once.
        var statement: (position: Int, statement: Statement)?
        try Self.split(count, several: several) { rows, position in
            if statement?.position != position { statement = (position, try db.cachedStatement(sql: texts[position])) }
            try statement?.statement.insert(rows: rows, scratch: scratch, bind)
        }
    }

    /// How `count` rows are split into executions, in order: `body` is called with each execution's rows and the
    /// position in ``sizes`` of the statement that inserts them. Up to ``rowsInStatementsOfSeveral`` rows go in the
    /// fewest executions, largest first (34 rows as 16, 16 and 2) unless `several` is false; more go one a statement.
    /// ``RowsFloor`` splits a report's rows by it too, so that the floor inserts as the writer does.
    static func split<E: Error>(
        _ count: Int, several allowed: Bool = true, _ body: (Range<Int>, Int) throws(E) -> Void
    ) throws(E) {
        let several = allowed && count <= rowsInStatementsOfSeveral
        var start = 0
        for (position, size) in sizes.enumerated() where several || size == 1 {
            while count - start >= size {
                try body(start..<start + size, position)
                start += size
            }
        }
    }
}
