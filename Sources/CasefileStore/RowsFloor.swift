import CasefileCore
import Foundation
import GRDBSQLite

/// The least the index writer's rows can cost: the rows a run stored, written again into a new index of the same
/// schema by SQLite alone — prepared statements bound straight from SQLite's own values, nothing in between.
///
/// The rows are copied as the writer writes them: report by report, each report's input, its row, its timeline
/// events and their blob, crashes with their threads, frames and images, chains, warnings, occurrences and input
/// link, in one savepoint per report, a commit after as many reports as the writer's batch holds inputs
/// (``BatchLimits/standard``), foreign keys checked, the index's journal settings, and the write-ahead log
/// checkpointed at the end. A report's rows of one table in a row are inserted several to a statement, as the writer
/// inserts a crash's threads, frames and images and a recording's events (``MultiRowInsert``): in statements of 16, 8,
/// 4, 2 and 1 rows, and one a statement past ``MultiRowInsert/rowsInStatementsOfSeveral``. What the writer does
/// besides storing rows (asking whether an input or a report is known, finding each report's group and counting its
/// occurrences) is not done. The benchmark prints it beside the index rows of its budget.
public enum RowsFloor {
    /// What one copy measured.
    public struct Measurement: Sendable {
        /// Reports copied.
        public var reports: Int
        /// Row inserts run: an input holding several reports is offered once with each (and stored once).
        public var rows: Int
        /// What the inserts, savepoints, commits and the checkpoint took (reading the rows first excluded).
        public var duration: Duration
    }

    /// The tables copied for each report, in the writer's order; a crash's own rows follow its row.
    private static let reportTables = [
        "inputs", "reports", "timeline_events", "event_details", "crashes", "chains", "report_warnings", "occurrences",
        "report_inputs",
    ]
    private static let crashTables = ["crash_threads", "crash_frames", "crash_images"]
    /// Offered before each crash row, one row for each set its blob names, as the writer offers them (and stored once).
    private static let setTable = "image_sets"

    /// Copies the rows of the index at `source` into a new database at `destination` and times the writing.
    public static func measure(source: String, destination: String) throws(StoreError) -> Measurement {
        // The run's SQLite and the index's own settings, so the floor is timed on what the writer runs on.
        _ = SQLiteSettings.applied
        let from = try RawConnection(path: source, flags: SQLITE_OPEN_READONLY)
        try? FileManager.default.removeItem(atPath: destination)
        let to = try RawConnection(path: destination, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        for pragma in IndexStore.journalPragmas + IndexStore.connectionPragmas { try to.execute(pragma) }
        // The schema, and what the rows refer to (runs, groups), before the timing starts.
        let schema = try from.prepare(
            """
            SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
            ORDER BY type = 'index', rowid
            """)
        while try schema.step() { try to.execute(schema.text(0)) }
        try to.execute("ATTACH DATABASE \(quoted(source)) AS source")
        try to.execute("INSERT INTO runs SELECT * FROM source.runs; INSERT INTO groups SELECT * FROM source.groups")
        try to.execute("DETACH DATABASE source")
        try to.execute("PRAGMA foreign_keys = ON")
        let reports = try rows(from: from)
        // For each table, its inserts of 16, 8, 4, 2 and 1 rows.
        let inserts = try (reportTables + crashTables + [setTable]).map { table throws(StoreError) in
            let columns = try from.prepare("SELECT * FROM \(table) LIMIT 0").columnCount
            let verb = ["inputs", "report_inputs", setTable].contains(table) ? "INSERT OR IGNORE" : "INSERT"
            let row = "(" + Array(repeating: "?", count: Int(columns)).joined(separator: ", ") + ")"
            return try MultiRowInsert.sizes.map { size throws(StoreError) in
                try to.prepare(
                    "\(verb) INTO \(table) VALUES " + Array(repeating: row, count: size).joined(separator: ", "))
            }
        }
        let control = try ["BEGIN IMMEDIATE", "SAVEPOINT report", "RELEASE report", "COMMIT"].map {
            sql throws(StoreError) in try to.prepare(sql)
        }
        let start = ContinuousClock.now
        var open = 0
        for report in reports {
            if open == 0 { try control[0].run() }
            try control[1].run()
            var start = 0
            while start < report.count {
                let table = report[start].table
                let end = report[start...].firstIndex { $0.table != table } ?? report.count
                try insert(report[start..<end], with: inserts[table])
                start = end
            }
            try control[2].run()
            open += 1
            if open == BatchLimits.standard.inputs {
                try control[3].run()
                open = 0
            }
        }
        if open > 0 { try control[3].run() }
        sqlite3_wal_checkpoint_v2(to.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        return Measurement(
            reports: reports.count, rows: reports.reduce(0) { $0 + $1.count }, duration: ContinuousClock.now - start)
    }

    /// Inserts `rows`, all of one table, with that table's `statements` (of 16, 8, 4, 2 and 1 rows), split as
    /// ``MultiRowInsert`` splits them.
    private static func insert(_ rows: ArraySlice<CopiedRow>, with statements: [RawStatement]) throws(StoreError) {
        let first = rows.startIndex
        try MultiRowInsert.split(rows.count) { (part: Range<Int>, position: Int) throws(StoreError) in
            try statements[position].run(
                binding: rows[first + part.lowerBound..<first + part.upperBound].lazy.map(\.values))
        }
    }

    /// One row to insert: the position of its table's statement, and its values.
    private struct CopiedRow {
        var table: Int
        var values: Values
    }

    /// Every report's rows, read before the timing starts, in the order the run wrote the reports.
    private static func rows(from index: RawConnection) throws(StoreError) -> [[CopiedRow]] {
        let reportIDs = try index.prepare("SELECT id FROM reports ORDER BY rowid")
        var selects: [RawStatement] = []
        for table in reportTables {
            let key =
                switch table {
                case "inputs": "id IN (SELECT input_id FROM report_inputs WHERE report_id = ?)"
                case "reports": "id = ?"
                default: "report_id = ?"
                }
            selects.append(try index.prepare("SELECT * FROM \(table) WHERE \(key) ORDER BY rowid"))
        }
        for table in crashTables {
            selects.append(try index.prepare("SELECT * FROM \(table) WHERE crash_id = ? ORDER BY rowid"))
        }
        let setByID = try index.prepare("SELECT * FROM \(setTable) WHERE id = ?")
        let crashes = reportTables.firstIndex(of: "crashes")!
        // A crash row holds its blob, which names the sets to offer before the row.
        let detail = selects[crashes].column(named: "detail")
        var reports: [[CopiedRow]] = []
        while try reportIDs.step() {
            let id = reportIDs.text(0)
            var rows: [CopiedRow] = []
            for table in reportTables.indices {
                let select = selects[table]
                select.reset(binding: id)
                while try select.step() {
                    guard table == crashes else {
                        rows.append(CopiedRow(table: table, values: Values(select)))
                        continue
                    }
                    let crash = sqlite3_column_int64(select.handle, 0)
                    let blob = detail.map(select.blob) ?? []
                    for id in (try? CrashDetailCodec.imageSetIDs(in: blob)) ?? [] {
                        setByID.reset(binding: id)
                        while try setByID.step() {
                            rows.append(
                                CopiedRow(table: reportTables.count + crashTables.count, values: Values(setByID)))
                        }
                    }
                    rows.append(CopiedRow(table: table, values: Values(select)))
                    for part in crashTables.indices {
                        let rowsOfCrash = selects[reportTables.count + part]
                        rowsOfCrash.reset(binding: crash)
                        while try rowsOfCrash.step() {
                            rows.append(CopiedRow(table: reportTables.count + part, values: Values(rowsOfCrash)))
                        }
                    }
                }
            }
            reports.append(rows)
        }
        return reports
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
