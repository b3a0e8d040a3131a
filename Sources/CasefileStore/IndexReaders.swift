import GRDBSQLite
import Synchronization

/// Read-only connections to an index on disk, on which a run's two questions about every input — is this content
/// known, which of these reports are — are answered on the asking task's own thread, and the symbolicator's cache
/// reads the answers stored for an image (``IndexStore/loadSymbolCache()``) while the writer is held.
///
/// Through the index's queue each question was a hop to the writer's thread and back, a wait behind the rows of
/// whatever input the writer was storing, and two thread wake-ups. With an input's rows that made three hops per
/// input, and on small inputs the run kept 1.3-1.4 of 2 cores busy, 13 % of its processor time in the kernel waiting on
/// and waking threads; answered here, a first run over 50,000 small inputs took 6.6-7.2 s instead of 9.7-10.2 s. A
/// reader sees what the index committed (the write-ahead log lets it read while the writer writes); what the open batch
/// holds, the store adds from what it remembers of the batch (``Batch``).
///
/// A connection serves one question at a time: each is taken from the idle ones (or opened) and given back when the
/// question is answered, so there are never more than the threads that asked at once. Each question is one statement,
/// reset before the answer is returned: a reader never keeps a read transaction open, which would hold the log back
/// from its checkpoint.
final class IndexReaders: Sendable {
    private let path: String
    private let idle = Mutex<[Reader]>([])

    /// Readers of the index at `path`, opened when first needed.
    init(path: String) {
        self.path = path
    }

    /// Whether the index holds an input with content hash `sha256`, as last committed.
    func isKnown(inputSHA256 sha256: String) throws(StoreError) -> Bool {
        try withReader { reader throws(StoreError) in try reader.exists(reader.input, sha256) }
    }

    /// Those of `ids` the index holds reports of, as last committed.
    func knownReports(_ ids: [String]) throws(StoreError) -> Set<String> {
        try reports(ids, answering: \.report)
    }

    /// Those of `ids` the index holds reports of from a run that is done (``IndexStore/settledReportSQL``), as last
    /// committed.
    func settledReports(_ ids: [String]) throws(StoreError) -> Set<String> {
        try reports(ids, answering: \.settled)
    }

    /// Those of `ids` for which a reader's `statement`, an `EXISTS` query of a report id, answers yes.
    private func reports(
        _ ids: [String], answering statement: KeyPath<Reader, RawStatement>
    ) throws(StoreError) -> Set<String> {
        try withReader { reader throws(StoreError) in
            var found: Set<String> = []
            for id in ids where try reader.exists(reader[keyPath: statement], id) { found.insert(id) }
            return found
        }
    }

    /// The symbolication answers stored for the image `uuid`, as last committed: each row's address, back end and
    /// locations as JSON.
    func symbolAnswers(uuid: String) throws(StoreError) -> [IndexStore.StoredAnswer] {
        try withReader { reader throws(StoreError) in
            let statement = reader.symbolAnswers
            statement.reset(binding: uuid)
            // Reset once read: the read transaction ends with the statement.
            defer { sqlite3_reset(statement.handle) }
            var rows: [IndexStore.StoredAnswer] = []
            while try statement.step() {
                rows.append((sqlite3_column_int64(statement.handle, 0), statement.text(1), statement.text(2)))
            }
            return rows
        }
    }

    private func withReader<T>(_ body: (Reader) throws(StoreError) -> T) throws(StoreError) -> T {
        let reader: Reader
        if let taken = idle.withLock({ $0.popLast() }) { reader = taken } else { reader = try Reader(path: path) }
        defer { idle.withLock { $0.append(reader) } }
        return try body(reader)
    }

    /// One read-only connection with its four statements. Used by one thread at a time: SQLite runs without a mutex per
    /// connection (``SQLiteSettings``), and a reader is only ever held by the question it answers.
    private final class Reader: @unchecked Sendable {
        let connection: RawConnection
        let input: RawStatement
        let report: RawStatement
        let settled: RawStatement
        let symbolAnswers: RawStatement

        init(path: String) throws(StoreError) {
            // No busy timeout: a reader that cannot read at once (an index not in WAL mode, mid-commit) fails, and the
            // store asks on the writer's queue instead.
            connection = try RawConnection(path: path, flags: SQLITE_OPEN_READONLY)
            input = try connection.prepare(IndexStore.knownInputSQL)
            report = try connection.prepare("SELECT EXISTS(SELECT 1 FROM reports WHERE id = ?)")
            settled = try connection.prepare(IndexStore.settledReportSQL)
            symbolAnswers = try connection.prepare(IndexStore.symbolAnswersSQL)
        }

        /// Runs `statement`, an `EXISTS` query of one parameter, for `value`.
        func exists(_ statement: RawStatement, _ value: String) throws(StoreError) -> Bool {
            statement.reset(binding: value)
            // Reset at once: the read transaction ends with the statement.
            defer { sqlite3_reset(statement.handle) }
            return try statement.step() && sqlite3_column_int(statement.handle, 0) != 0
        }
    }
}
